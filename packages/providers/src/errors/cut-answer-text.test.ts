import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutAnswerText } from './cut-answer-text.ts';

describe('cutAnswerText', () => {
  it('keeps a text within the limit as it is', () => {
    expect(cutAnswerText('HTTP 502 bad gateway', 20)).toBe('HTTP 502 bad gateway');
  });

  it('cuts before the word the limit falls in, and says how much more there was', () => {
    expect(cutAnswerText('key sk-abcdefghijklmnop was refused', 10)).toBe('key… (31 more characters of the answer)');
  });

  it('never leaves the start of a word cut in two (a key), and keeps a prefix of the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'b', ' ', '\n', '😀', 'é'), maxLength: 200 }), fc.integer({ min: 1, max: 100 }), (text, limit) => {
        const cut = cutAnswerText(text, limit);
        if (text.length <= limit) {
          expect(cut).toBe(text);
          return;
        }
        const kept = cut.slice(0, cut.indexOf('… ('));
        expect(text.startsWith(kept)).toBe(true);
        expect(kept.length).toBeLessThanOrEqual(limit);
        // What follows the kept part in the text starts with white space, or the kept part ends a word.
        const next = text.charAt(kept.length);
        expect(kept === '' || /\s/.test(next) || /\s/.test(kept.at(-1) ?? ' ') || next === '').toBe(true);
        expect(cut).toMatch(/… \(\d+ more characters of the answer\)$/);
      }),
      { numRuns: 500 },
    );
  });
});
