/**
 * The check of a caller's argument types: a wrong type is the caller's
 * mistake, not the envelope's, so it is a `TypeError` naming the function and
 * the argument (the README's promise), never a JavaScript error from inside
 * the codec (`text.split is not a function`).
 */

/** `null`, or the `typeof` of a value: how a wrong argument is named (never its content, which may be a reply). */
export function kindOf(value: unknown): string {
  return value === null ? 'null' : typeof value;
}

/** Throws a `TypeError` naming `where` (`progressDigest: output`) unless `value` is a string. */
export function requireString(value: unknown, where: string): asserts value is string {
  if (typeof value !== 'string') throw new TypeError(`${where} must be a string, got ${kindOf(value)}`);
}
