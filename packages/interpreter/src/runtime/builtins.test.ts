import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runeCount } from './builtins.ts';

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
