/** The README's error table is MCP_ERROR_CODES, so the two cannot drift apart. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MCP_ERROR_CODES } from '../src/index.ts';

describe('README error table', () => {
  it('lists every code with its fix, in order', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('<!-- errors:start -->'), readme.indexOf('<!-- errors:end -->'));
    const rows = [...table.matchAll(/^\| `([A-Z_]+)` \| (.*) \|$/gm)].map((match) => [match[1], (match[2] as string).replaceAll('\\|', '|')]);
    expect(rows).toEqual(Object.entries(MCP_ERROR_CODES).map(([code, info]) => [code, info.fix]));
  });
});
