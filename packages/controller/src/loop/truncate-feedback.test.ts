import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { truncateFeedback } from './truncate-feedback.ts';

describe('truncateFeedback', () => {
  it('keeps text that fits', () => {
    expect(truncateFeedback('short', 'OUTPUT', 10)).toBe('short');
  });

  it('cuts on a character boundary and says how much was dropped', () => {
    expect(truncateFeedback('ééé', 'OUTPUT', 3)).toBe('é\n[[truncated:OUTPUT:4 bytes]]');
  });

  it('never exceeds the cap before the marker and never splits a character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.integer({ min: 0, max: 30 }), (text, cap) => {
        const cut = truncateFeedback(text, 'SCRATCHPAD', cap);
        if (Buffer.byteLength(text) <= cap) {
          expect(cut).toBe(text);
          return;
        }
        const [kept = '', marker] = cut.split(/\n(?=\[\[truncated:SCRATCHPAD:\d+ bytes\]\]$)/);
        expect(Buffer.byteLength(kept)).toBeLessThanOrEqual(cap);
        expect(text.startsWith(kept)).toBe(true);
        expect(marker).toBe(`[[truncated:SCRATCHPAD:${Buffer.byteLength(text) - Buffer.byteLength(kept)} bytes]]`);
      }),
    );
  });
});
