import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatNumber } from './format-number.ts';

describe('formatNumber', () => {
  it.each([
    [3, '3'],
    [3.14, '3.14'],
    [1e21, '1000000000000000000000'],
    [-1e21, '-1000000000000000000000'],
    [999999999999999900000, '999999999999999900000'],
    [-7, '-7'],
    [2 ** 53 + 2, '9007199254740994'],
    [1.5e22, '15000000000000000000000'],
    [1e-7, '0.0000001'],
    [-2.5e-8, '-0.000000025'],
    [-0, '0'],
    [Number.NaN, 'NaN'],
    [Infinity, '+Inf'],
    [-Infinity, '-Inf'],
  ])('%s → %s', (value, text) => {
    expect(formatNumber(value)).toBe(text);
  });

  it('never uses an exponent and round-trips', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (value) => {
        const text = formatNumber(value);
        expect(text).not.toMatch(/e/i);
        expect(Number(text)).toBe(Object.is(value, -0) ? 0 : value);
      }),
    );
  });
});
