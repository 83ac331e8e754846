import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callBuiltin, findBuiltin, runeCount } from './builtins.ts';

/** Any sequence of UTF-16 code units, lone and paired surrogates included. */
const units = fc.array(fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0xd800, max: 0xdfff })), { maxLength: 40 }).map((codes) => String.fromCharCode(...codes));

describe('runeCount', () => {
  it('counts code points as the string iterator does: a surrogate pair once, a lone surrogate once', () => {
    fc.assert(fc.property(units, (text) => {
        expect(runeCount(text)).toBe(Array.from(text).length);
      }), { numRuns: 2000 });
  });

  it('counts long text with and without surrogates', () => {
    const plain = 'ab'.repeat(50_000);
    expect(runeCount(plain)).toBe(100_000);
    expect(runeCount(`${plain}😀`)).toBe(100_001);
    expect(runeCount(`😀${plain}\ud800`)).toBe(100_002);
  });
});

describe('char', () => {
  const builtin = findBuiltin('char');
  if (builtin === undefined) throw new Error('no char built-in');
  const char = (code: number): unknown => callBuiltin('char', builtin, [code], null);

  it('refuses a UTF-16 surrogate (no character; a lone half in a string) as it refuses any other number that is no character', () => {
    for (const code of [0xd800, 0xdbff, 0xdc00, 0xdfff, -1, 0x110000, 65.5]) expect(() => char(code)).toThrowError(expect.objectContaining({ code: 'SCRIPT_INVALID_ARGUMENT' }));
    expect(() => char(0xd800)).toThrowError(expect.objectContaining({ message: 'char() needs a code point that is not a UTF-16 surrogate (55296 to 57343, half of a pair), got 55296; a character past 65535 is one code point (char(128512) is 😀).' }));
  });

  it('gives every other code point its character, up to 1114111', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 0x10ffff }).filter((code) => code < 0xd800 || code > 0xdfff), (code) => char(code) === String.fromCodePoint(code)));
    expect([char(0xd7ff), char(0xe000), char(0x10ffff)]).toEqual(['\ud7ff', '\ue000', '\u{10ffff}']);
  });
});
