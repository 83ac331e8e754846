import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toLowerSimple, toUpperSimple } from './simple-case.ts';

describe('simple case mapping (Go strings.ToUpper / ToLower)', () => {
  it('maps each character on its own, as Go does', () => {
    expect(toUpperSimple('straße')).toBe('STRAßE');
    expect(toUpperSimple('ﬁne')).toBe('ﬁNE');
    expect(toLowerSimple('ΣΑΣ')).toBe('σασ');
    expect(toLowerSimple('İstanbul')).toBe('istanbul');
    expect(toUpperSimple('ᾳ')).toBe('ᾼ');
    expect(toUpperSimple('héllo wörld 😀')).toBe('HÉLLO WÖRLD 😀');
    expect(toLowerSimple('ÀÉÎ')).toBe('àéî');
    expect(toUpperSimple('hello')).toBe('HELLO');
  });

  it('never changes the length in characters (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (text) => {
        expect([...toUpperSimple(text)]).toHaveLength([...text].length);
        expect([...toLowerSimple(text)]).toHaveLength([...text].length);
      }),
    );
  });
});
