import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8 } from './first-invalid-utf8.ts';

const fatal = new TextDecoder('utf-8', { fatal: true });
const isValid = (bytes: Uint8Array): boolean => {
  try {
    fatal.decode(bytes);
    return true;
  } catch {
    return false;
  }
};

describe('firstInvalidUtf8', () => {
  it('agrees with the fatal TextDecoder, and the bytes before the offset are valid', () => {
    // Bytes biased towards UTF-8 lead and continuation bytes, so sequences of every kind occur.
    const byte = fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x80, max: 0xbf }), fc.integer({ min: 0xc0, max: 0xff }));
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 24 }), (values) => {
        const bytes = new Uint8Array(values);
        const offset = firstInvalidUtf8(bytes);
        expect(offset === -1).toBe(isValid(bytes));
        if (offset >= 0) expect(isValid(bytes.subarray(0, offset))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('finds overlong forms, surrogates, values past U+10FFFF and truncated sequences', () => {
    expect(firstInvalidUtf8(new Uint8Array([0x41, 0xc0, 0x80]))).toBe(1);
    expect(firstInvalidUtf8(new Uint8Array([0xe0, 0x80, 0x80]))).toBe(0);
    expect(firstInvalidUtf8(new Uint8Array([0x41, 0xed, 0xa0, 0x80]))).toBe(1);
    expect(firstInvalidUtf8(new Uint8Array([0xf4, 0x90, 0x80, 0x80]))).toBe(0);
    expect(firstInvalidUtf8(new Uint8Array([0x41, 0x42, 0xe2, 0x82]))).toBe(2);
    expect(firstInvalidUtf8(new TextEncoder().encode('héllo €𝄞'))).toBe(-1);
  });
});
