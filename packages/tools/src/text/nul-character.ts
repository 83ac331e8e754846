/**
 * U+0000 in a name a store keeps as text. PostgreSQL's text type cannot hold
 * the character: a key, session id or tool name holding one failed there as
 * `STORE_FAILED` (and, in a worker's step, took the step's transaction with
 * it), while SQLite kept it. So every backend refuses such a name alike, up
 * front, naming only where the character is, never the text around it.
 * Values are not names: canonical JSON writes the character as `\u0000`.
 */

/** Where `text` holds U+0000 first, or -1. */
export function nulIndex(text: string): number {
  return text.indexOf('\u0000');
}

/**
 * Why `text` cannot be a stored name (it holds U+0000), in words that follow
 * the argument's name, or undefined when it can: "holds the NUL character
 * (U+0000) at index 3, which no store keeps".
 */
export function nulProblem(text: string): string | undefined {
  const index = nulIndex(text);
  return index < 0 ? undefined : `holds the NUL character (U+0000) at index ${index}, which no store keeps`;
}
