/**
 * Text from a model, a tool or a stored record is written to a terminal, so
 * it must not carry control characters: an ESC could recolour, move the
 * cursor or retitle the window, a CR could overwrite the line before it. They
 * are shown as visible escapes (`\x1b`); tabs and newlines stay.
 */

import { CONTROL_CLASS } from '../control-characters.ts';

// C0 controls other than tab and newline, DEL, and the C1 controls (some terminals act on single-byte CSI, U+009B);
// and the bidirectional controls, which reorder what follows (`invoice\u202Etxt.exe` shows as `invoiceexe.txt`): the
// characters the viewer marks, from the one list.
const CONTROL = new RegExp(CONTROL_CLASS, 'g');

/** Replaces control characters (other than `\t` and `\n`) with `\xNN`, and bidirectional controls with `\uNNNN`, so the text cannot drive the terminal or reorder itself. */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, (character) => {
    const code = character.charCodeAt(0);
    return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
