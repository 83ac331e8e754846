import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileGlob, matchGlob } from './glob.ts';

/** The backtracking RegExp the matcher replaced: the reference semantics, fine on small inputs. */
function referenceGlob(pattern: string, subject: string, separator: string): boolean {
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  const segmentSource = (segment: string): string => {
    let source = '';
    for (let index = 0; index < segment.length; index += 1) {
      if (segment[index] === '*') {
        if (segment[index + 1] === '*') {
          source += '.*';
          while (segment[index + 1] === '*') index += 1;
        } else source += `[^${escape(separator)}]*`;
      } else source += escape(segment[index] as string);
    }
    return source;
  };
  const sep = escape(separator);
  const segments = pattern.split(separator);
  let source = '';
  segments.forEach((segment, index) => {
    const first = index === 0;
    const last = index === segments.length - 1;
    if (segment === '**') {
      if (first && last) source += '.*';
      else if (first) source += `(?:.*${sep})?`;
      else if (last) source += `(?:${sep}.*)?`;
      else source += `${sep}(?:.*${sep})?`;
      return;
    }
    if (!first && segments[index - 1] !== '**') source += sep;
    source += segmentSource(segment);
  });
  return new RegExp(`^${source}$`, 's').test(subject);
}

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

  it('agrees with the reference RegExp matcher on small inputs', () => {
    const text = (alphabet: string[], maxLength: number) => fc.array(fc.constantFrom(...alphabet), { maxLength }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text(['a', 'b', '/', '*', '**', '/**/'], 8), text(['a', 'b', '/'], 10), (pattern, subject) => {
        expect(matchGlob(pattern, subject, { separator: '/' })).toBe(referenceGlob(pattern, subject, '/'));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(text(['a', 'B', '.', '*'], 8), text(['A', 'b', '.'], 8), (pattern, subject) => {
        expect(matchGlob(pattern, subject, { separator: '.', ignoreCase: true })).toBe(referenceGlob(pattern.toLowerCase(), subject.toLowerCase(), '.'));
      }),
      { numRuns: 1000 },
    );
  });

  it('matches a 64 KB adversarial path against a many-`**` pattern (regression: a backtracking RegExp took minutes)', () => {
    const pattern = '/data/**/x/**/x/**/x/**/x/**/*.txt';
    const subject = `/data/${'x/'.repeat(32 * 1024)}y`;
    const glob = compileGlob(pattern, { separator: '/' });
    expect(glob.test(subject)).toBe(false);
    expect(glob.test(`${subject}.txt`)).toBe(true);
  });
});
