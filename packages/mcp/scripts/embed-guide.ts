/**
 * Writes src/server/neuroscript-guide-text.ts from docs/neuroscript.md, so
 * the published package serves the project's NeuroScript guide without
 * reading files outside itself. Run `pnpm embed-guide` after the guide
 * changes; test/guide.test.ts fails until the two match.
 *
 * Usage: node scripts/embed-guide.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';

const guide = readFileSync(new URL('../../../docs/neuroscript.md', import.meta.url), 'utf8');
const header = '/** docs/neuroscript.md, embedded by `pnpm embed-guide` (scripts/embed-guide.ts). Do not edit: edit the guide and run the script. */\n';
writeFileSync(new URL('../src/server/neuroscript-guide-text.ts', import.meta.url), `${header}export const NEUROSCRIPT_GUIDE_TEXT: string = ${JSON.stringify(guide)};\n`);
