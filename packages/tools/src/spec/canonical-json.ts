/**
 * Canonical JSON text of a tool value: object keys sorted by UTF-8 byte order
 * (Go's `sort.Strings`, reference §3.5), no whitespace. Stores keep values in
 * this form and idempotence records compare arguments by it, so the text must
 * be one function of the value: equal values, one text; different values,
 * different texts.
 */
import type { ToolValue } from './tool-value.ts';

/**
 * Compares two strings by their UTF-8 bytes, as Go's sort.Strings does; a
 * total order on every JavaScript string. UTF-8 writes each lone surrogate
 * (half of a UTF-16 pair without its other half) as U+FFFD, so `'a\uD800'`,
 * `'a\uDC00'` and `'a\uFFFD'` have the same bytes: only then (the strings
 * differ, their bytes do not) are they ordered by UTF-16 code units. Two
 * well-formed strings never have the same bytes, so their order is byte order
 * alone, as it always was. (Bytes first, then units, compares the pairs
 * (bytes, string) lexicographically, so the order is transitive.)
 */
export function compareUtf8(left: string, right: string): number {
  const byBytes = Buffer.compare(Buffer.from(left, 'utf8'), Buffer.from(right, 'utf8'));
  if (byBytes !== 0 || left === right) return byBytes;
  // A tie would leave a map's key order, and so its canonical text, to its insertion order.
  return left < right ? -1 : 1;
}

/**
 * Canonical JSON text of `value` (keys sorted by `compareUtf8`, no
 * whitespace). Strings are written by `JSON.stringify`, which escapes a lone
 * surrogate as `\udXXX`, so the text is well-formed and `JSON.parse` gives the
 * value back.
 */
export function canonicalJson(value: ToolValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const keys = Object.keys(value).sort(compareUtf8);
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, ToolValue>)[key] as ToolValue)}`).join(',')}}`;
}
