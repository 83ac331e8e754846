/**
 * A lone surrogate in a name a store keeps as text: half of a UTF-16
 * surrogate pair without its other half, which no UTF-8 text can hold. SQLite
 * and the PostgreSQL client both write one as U+FFFD, so `'a\uD800'`,
 * `'a\uDBFF'` and `'a\uFFFD'` were one key on either backend, and a write to
 * one overwrote the others. So every backend refuses such a name alike, up
 * front, as it refuses U+0000 (`nul-character.ts`), naming where the half is.
 * Values are not names: canonical JSON writes a lone surrogate as an escape
 * (`\ud800`), which every store keeps and gives back as it was.
 */

// In a `u` regular expression a well-formed pair is one code point (not a surrogate), so this matches lone halves only.
const LONE_SURROGATE = /\p{Cs}/u;

/** Where `text` holds a lone surrogate first, or -1 when it is well-formed text. */
export function loneSurrogateIndex(text: string): number {
  return LONE_SURROGATE.exec(text)?.index ?? -1;
}

/** The code point of `text`'s UTF-16 unit at `index`, as Unicode writes it: "U+D800". */
export function unitName(text: string, index: number): string {
  return `U+${text.charCodeAt(index).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Why `text` cannot be a stored name (it holds a lone surrogate), in words
 * that follow the argument's name, or undefined when it can: "is not
 * well-formed text: the character at index 3 is half of a surrogate pair
 * (U+D800) without its other half, which a store keeps as U+FFFD".
 */
export function loneSurrogateProblem(text: string): string | undefined {
  const index = loneSurrogateIndex(text);
  return index < 0 ? undefined : `is not well-formed text: the character at index ${index} is half of a surrogate pair (${unitName(text, index)}) without its other half, which a store keeps as U+FFFD`;
}
