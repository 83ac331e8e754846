/**
 * Text from a model, a tool or a stored record is written to a terminal, so
 * it must not carry control characters: an ESC could recolour, move the
 * cursor or retitle the window, a CR could overwrite the line before it. They
 * are shown as visible escapes (`\x1b`); tabs and newlines stay.
 */

// C0 controls other than tab and newline, DEL, and the C1 controls (some terminals act on single-byte CSI, U+009B).
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Replaces control characters (other than `\t` and `\n`) with `\xNN`, so the text cannot drive the terminal. */
export function terminalSafe(text: string): string {
  return text.replace(CONTROL, (character) => `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
