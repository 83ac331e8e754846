import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineIndex } from './line-index.ts';

describe('LineIndex', () => {
  it('gives 1-based lines and columns', () => {
    const index = new LineIndex('ab\ncd\n\nef');
    expect(index.position(0)).toEqual({ line: 1, column: 1 });
    expect(index.position(4)).toEqual({ line: 2, column: 2 });
    expect(index.position(6)).toEqual({ line: 3, column: 1 });
    expect(index.position(8)).toEqual({ line: 4, column: 2 });
  });

  it('counts a character above U+FFFF as one column, as the reference counts runes', () => {
    const text = 'x = 1\n  set s = "😀😀" + [1][9]';
    const index = new LineIndex(text);
    expect(index.position(text.indexOf('[1]'))).toEqual({ line: 2, column: 18 });
    expect(index.position(text.indexOf('[9]'))).toEqual({ line: 2, column: 21 });
    // Other lines keep their plain columns.
    expect(index.position(4)).toEqual({ line: 1, column: 5 });
  });

  it('agrees with counting the code points before the offset on its line (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 12 }), { minLength: 1, maxLength: 6 }), fc.nat(), (lines, pick) => {
        const text = lines.join('\n');
        // Offsets at character boundaries only (never inside a surrogate pair).
        const boundaries = [...text].reduce<number[]>((offsets, character) => [...offsets, (offsets.at(-1) ?? 0) + character.length], [0]);
        const offset = boundaries[pick % boundaries.length] as number;
        const before = text.slice(0, offset);
        const line = before.split('\n').length;
        const column = [...(before.split('\n').at(-1) ?? '')].length + 1;
        expect(new LineIndex(text).position(offset)).toEqual({ line, column });
      }),
    );
  });
});
