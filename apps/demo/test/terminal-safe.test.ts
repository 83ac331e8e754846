/**
 * `terminalSafe`: what a model, a tool or a record says cannot drive a
 * terminal or reorder itself on it. Regression: bidirectional controls were
 * printed raw by `askloop sessions` and `show` (`invoice\u202Etxt.exe` shows
 * as `invoiceexe.txt`), while the viewer marked them.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { terminalSafe } from '../src/progress/terminal-safe.ts';

const BIDI = ['\u061c', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];

describe('terminalSafe', () => {
  it('escapes C0 and C1 controls as \\xNN and bidirectional controls as \\uNNNN, and keeps tab, newline and text', () => {
    expect(terminalSafe('a\u001b[31mb\u009bc\td\ne')).toBe('a\\x1b[31mb\\x9bc\td\ne');
    expect(terminalSafe('invoice\u202etxt.exe')).toBe('invoice\\u202etxt.exe');
    expect(terminalSafe(BIDI.join(''))).toBe(BIDI.map((character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''));
    expect(terminalSafe('مرحبا שלום 你好 👋🏽')).toBe('مرحبا שלום 你好 👋🏽');
  });

  it('leaves no control or bidirectional control in any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(fc.constantFrom(...BIDI, '\u001b', '\u0007', '\u0085', '\t', '\n'), fc.string({ unit: 'grapheme', maxLength: 1 })) }), (text) => {
        expect(terminalSafe(text)).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
      }),
    );
  });
});
