import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8Offset, tryDecodeUtf8 } from './utf8.ts';

describe('firstInvalidUtf8Offset', () => {
  it('agrees with the strict decoder on any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(firstInvalidUtf8Offset(bytes) === -1).toBe(tryDecodeUtf8(bytes) !== undefined);
      }),
      { numRuns: 2000 },
    );
  });

  it('points at the first bad sequence', () => {
    expect(firstInvalidUtf8Offset(new Uint8Array([0x61, 0xed, 0xa0, 0x80]))).toBe(1); // a surrogate
    expect(firstInvalidUtf8Offset(new Uint8Array([0x61, 0x62, 0xf4, 0x90, 0x80, 0x80]))).toBe(2); // past U+10FFFF
    expect(firstInvalidUtf8Offset(new TextEncoder().encode('ok ✓ 👋'))).toBe(-1);
  });
});
