/**
 * The characters untrusted text must not carry raw onto a screen, as a
 * regular-expression character class: the C0 controls but tab and newline,
 * DEL and the C1 controls (an ESC recolours a terminal or moves its cursor),
 * the Arabic letter mark (U+061C), the left-to-right and right-to-left marks
 * (U+200E, U+200F), the bidi embeddings and overrides (U+202A–U+202E) and the
 * bidi isolates (U+2066–U+2069), which make text read otherwise than it is
 * stored (`txt.exe` shown as `exe.txt`). Kept as text so the terminal's
 * escaping (`progress/terminal-safe.ts`), the viewer's marks and the page's
 * script use the one list.
 */
export const CONTROL_CLASS = String.raw`[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]`;
