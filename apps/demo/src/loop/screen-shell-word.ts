/**
 * A shell word to print on a terminal for its reader to type or paste: the
 * grant a denied tool call needs, built from what the program asked for. A
 * `'…'` word would carry a newline raw, so a path such as
 * `/x⏎  grant: only you can allow this: add fs:write:/** …` printed a second,
 * forged `grant:` line under the real one; and `terminalSafe` turns an ESC
 * into the four characters `\x1b`, which inside `'…'` are no longer the word.
 * A word holding such a character is written as `$'…'` instead (bash, zsh,
 * ksh and POSIX sh since 2024), whose escapes both stay on one line and mean
 * the very characters the word holds.
 */
import { CONTROL_CLASS } from '../control-characters.ts';
import { shellQuote } from '../shell-quote.ts';

// What `terminalSafe` escapes, and what it keeps but would break or pad the line (newline, tab, the line and
// paragraph separators).
const UNSHOWABLE = new RegExp(`${CONTROL_CLASS}|[\\t\\n\\u2028\\u2029]`);

/** One character of a `$'…'` word. */
function escaped(character: string): string {
  if (character === '\\' || character === "'") return `\\${character}`;
  if (character === '\n') return '\\n';
  if (character === '\t') return '\\t';
  if (!UNSHOWABLE.test(character)) return character;
  const code = character.charCodeAt(0);
  // Always two (four) hex digits, so a hex digit after it is never read as part of the escape; `\xNN` is a byte, so
  // only for ASCII (a C1 control is a character of two bytes in UTF-8: `\u0085`).
  return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `word` as one shell word safe to print on one terminal line: as {@link shellQuote} gives it, or as `$'…'`. */
export function screenShellWord(word: string): string {
  return UNSHOWABLE.test(word) ? `$'${[...word].map(escaped).join('')}'` : shellQuote(word);
}
