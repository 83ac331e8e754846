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

  it('keeps the end too: a run-time error line after a long OUTPUT reaches the next turn whole', () => {
    const output = `${'x'.repeat(20_000)}\nSYSTEM_ERROR SCRIPT_INDEX_OUT_OF_RANGE at line 9: index 7 is out of range\n> emit [1][7]`;
    const cut = truncateFeedback(output, 'OUTPUT');
    expect(cut.endsWith('\nSYSTEM_ERROR SCRIPT_INDEX_OUT_OF_RANGE at line 9: index 7 is out of range\n> emit [1][7]')).toBe(true);
    expect(cut).toMatch(/^x+\n\[\[truncated:OUTPUT:\d+ bytes\]\]\nSYSTEM_ERROR/);
    expect(Buffer.byteLength(cut.replace(/\n\[\[truncated:OUTPUT:\d+ bytes\]\]\n/, ''))).toBeLessThanOrEqual(16 * 1024);
  });

  it('keeps a start and an end of the text within the cap, says how much of the middle was dropped, and never splits a character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), fc.integer({ min: 0, max: 60 }), (text, cap) => {
        const cut = truncateFeedback(text, 'SCRATCHPAD', cap);
        if (Buffer.byteLength(text) <= cap) {
          expect(cut).toBe(text);
          return;
        }
        const match = /^([\s\S]*?)\n\[\[truncated:SCRATCHPAD:(\d+) bytes\]\](?:\n([\s\S]*))?$/.exec(cut);
        expect(match).not.toBeNull();
        const [, head = '', dropped = '', tail = ''] = match!;
        expect(text.startsWith(head)).toBe(true);
        expect(text.endsWith(tail)).toBe(true);
        expect(Buffer.byteLength(head) + Buffer.byteLength(tail)).toBeLessThanOrEqual(cap);
        expect(Number(dropped)).toBe(Buffer.byteLength(text) - Buffer.byteLength(head) - Buffer.byteLength(tail));
      }),
    );
  });
});
