/**
 * Rewrites the generated sections of README.md. Run from the package folder:
 * `node --conditions=@askloop/source test/update-readme.ts`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { errorTable, replaceSection, toolTable } from './readme-tables.ts';

const file = new URL('../README.md', import.meta.url);
const readme = readFileSync(file, 'utf8');
writeFileSync(file, replaceSection(replaceSection(readme, 'tools', toolTable()), 'errors', errorTable()));
