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
 * (bytes, string) lexicographically, so the order is transitive.) It
 * allocates nothing: it compares code points, not encoded bytes.
 */
export function compareUtf8(left: string, right: string): number {
  // Walks both strings by code point instead of encoding them: UTF-8 byte
  // order is code point order, and a sort calls this for every comparison, so
  // it must not allocate. A string that runs out first is a prefix of the
  // other in code points, and so in bytes: it sorts first.
  let leftIndex = 0;
  let rightIndex = 0;
  while (leftIndex < left.length && rightIndex < right.length) {
    const leftUnit = left.charCodeAt(leftIndex);
    const rightUnit = right.charCodeAt(rightIndex);
    // Fast path: two equal units outside the surrogate range are one equal code point.
    if (leftUnit === rightUnit && (leftUnit < 0xd800 || leftUnit > 0xdfff)) {
      leftIndex += 1;
      rightIndex += 1;
      continue;
    }
    const leftPoint = codePointAsUtf8(left, leftIndex, leftUnit);
    const rightPoint = codePointAsUtf8(right, rightIndex, rightUnit);
    if (leftPoint !== rightPoint) return leftPoint < rightPoint ? -1 : 1;
    leftIndex += leftPoint > 0xffff ? 2 : 1;
    rightIndex += rightPoint > 0xffff ? 2 : 1;
  }
  if (leftIndex < left.length) return 1;
  if (rightIndex < right.length) return -1;
  if (left === right) return 0;
  // The bytes tie (a lone surrogate against another or against U+FFFD): a tie
  // would leave a map's key order, and so its canonical text, to its insertion order.
  return left < right ? -1 : 1;
}

/**
 * The code point UTF-8 writes for the unit `unit` at `index` of `text`: a
 * valid surrogate pair's code point (above U+FFFF, so it takes two units), a
 * lone surrogate's U+FFFD (one unit, as UTF-8 writes it), else the unit itself.
 */
function codePointAsUtf8(text: string, index: number, unit: number): number {
  if (unit < 0xd800 || unit > 0xdfff) return unit;
  if (unit <= 0xdbff && index + 1 < text.length) {
    const next = text.charCodeAt(index + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return 0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00);
  }
  return 0xfffd;
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
