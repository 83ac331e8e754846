import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { errorTable, replaceSection, toolTable } from './readme-tables.ts';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it('lists every built-in tool and every error code (regenerate with node test/update-readme.ts)', () => {
    expect(replaceSection(replaceSection(readme, 'tools', toolTable()), 'errors', errorTable())).toBe(readme);
  });
});
