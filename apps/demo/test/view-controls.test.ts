/**
 * Which characters the viewer shows as marks (visible-controls.ts): the ones
 * that can reorder or hide text, and nothing of ordinary text in any script.
 * The page itself is checked in Chromium (view-browser.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { controlMark, markControls } from '../src/view/visible-controls.ts';

describe('markControls', () => {
  it('marks the bidi embeddings, overrides, isolates and marks, and the C0 and C1 controls', () => {
    const marked = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c', '\u0000', '\u0007', '\u000b', '\r', '\u001b', '\u007f', '\u0085', '\u009b', '\u009f'];
    for (const character of marked) expect(markControls(`a${character}b`), controlMark(character)).toBe(`a${controlMark(character)}b`);
    expect(markControls('name\u202Etxt.exe')).toBe('name⟨U+202E⟩txt.exe');
    expect(controlMark('\u0000')).toBe('⟨U+0000⟩');
  });

  it('leaves tab, newline and ordinary text of any script alone, joiners included', () => {
    for (const text of ['tab\tand\nnewline', 'مرحبا بالعالم', 'שלום עולם', 'سلام\u200cها', '👨\u200d👩\u200d👧 🎉 🇫🇷', 'é ✓ 𝄞 日本語', '\u00a0\u00ad\u200b']) expect(markControls(text), text).toBe(text);
  });
});
