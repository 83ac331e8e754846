import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchGlob } from './glob.ts';

// The tricky-glob table: [pattern, subject, separator, expected].
const table: [string, string, '.' | '/', boolean][] = [
  // Tool names (separator '.').
  ['tool.str.*', 'tool.str.length', '.', true],
  ['tool.str.*', 'tool.strx.length', '.', false],
  ['tool.str.*', 'tool.str', '.', false],
  ['tool.str.*', 'tool.str.a.b', '.', false],
  ['tool.str.**', 'tool.str.a.b', '.', true],
  ['tool.str.**', 'tool.str', '.', true],
  ['tool.*', 'tool.str.length', '.', false],
  ['tool.**', 'tool.str.length', '.', true],
  ['**', 'tool.str.length', '.', true],
  ['**.length', 'tool.list.length', '.', true],
  ['**.length', 'tool.list.lengthy', '.', false],
  ['tool.*.length', 'tool.list.length', '.', true],
  ['tool.*.length', 'tool.a.b.length', '.', false],
  ['tool.**.length', 'tool.a.b.length', '.', true],
  ['tool.**.length', 'tool.length', '.', true],
  ['tool.str.to*', 'tool.str.toupper', '.', true],
  ['tool.str.*per', 'tool.str.toupper', '.', true],
  ['tool.str.*pp*', 'tool.str.toupper', '.', true],
  ['tool.str.t*r', 'tool.str.toupper', '.', true],
  ['tool.str.t*r', 'tool.str.toupperx', '.', false],
  ['tool.s*.length', 'tool.str.length', '.', true],
  ['tool.s*', 'tool.str.length', '.', false],
  ['tool.s**', 'tool.str.length', '.', true],
  ['tool.str.length', 'tool.str.length', '.', true],
  ['tool.str.length', 'tool.str.lengthx', '.', false],
  ['tool.str.len.th', 'tool.str.length', '.', false],
  ['tool.str.(a|b)', 'tool.str.a', '.', false],
  ['tool.str.[ab]', 'tool.str.a', '.', false],
  ['tool.str.?', 'tool.str.a', '.', false],
  // Paths (separator '/').
  ['/data/**', '/data', '/', true],
  ['/data/**', '/data/x', '/', true],
  ['/data/**', '/data/x/y.txt', '/', true],
  ['/data/**', '/database', '/', false],
  ['/data/**', '/data2/x', '/', false],
  ['/data/*', '/data/x', '/', true],
  ['/data/*', '/data/x/y', '/', false],
  ['/data/*.txt', '/data/a.txt', '/', true],
  ['/data/*.txt', '/data/a.txt.bak', '/', false],
  ['/data/*.txt', '/data/sub/a.txt', '/', false],
  ['/data/**/*.txt', '/data/a.txt', '/', true],
  ['/data/**/*.txt', '/data/sub/deeper/a.txt', '/', true],
  ['/data/**/*.txt', '/data/sub/a.md', '/', false],
  ['/a/**/b', '/a/b', '/', true],
  ['/a/**/b', '/a/x/y/b', '/', true],
  ['/a/**/b', '/a/xb', '/', false],
  ['**', '/anything/at/all', '/', true],
  ['*', '/x', '/', false],
  ['/Data/**', '/data/x', '/', false],
];

describe('compileGlob / matchGlob', () => {
  it.each(table)('%s vs %s (sep %s) → %s', (pattern, subject, separator, expected) => {
    expect(matchGlob(pattern, subject, { separator, ignoreCase: separator === '.' })).toBe(expected);
  });

  it('is case-insensitive for tool names when asked', () => {
    expect(matchGlob('tool.STR.*', 'tool.str.toupper', { separator: '.', ignoreCase: true })).toBe(true);
    expect(matchGlob('tool.STR.*', 'tool.str.toupper', { separator: '.' })).toBe(false);
  });

  it('matches every string literally when the pattern has no wildcard', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(matchGlob(text.replaceAll('*', ''), text.replaceAll('*', ''), { separator: '/' })).toBe(true);
      }),
    );
  });

  it('`**` matches any path and `*` never crosses a separator', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,5}$/), { minLength: 1, maxLength: 5 }), (segments) => {
        const subject = `/${segments.join('/')}`;
        expect(matchGlob('/**', subject, { separator: '/' })).toBe(true);
        expect(matchGlob('/*', subject, { separator: '/' })).toBe(segments.length === 1);
      }),
    );
  });
});
