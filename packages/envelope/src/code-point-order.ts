/**
 * Compares strings by Unicode code point, which is UTF-8 byte order (Go's
 * `sort.Strings`). JavaScript's default order compares UTF-16 units and puts
 * U+E000…U+FFFF after astral characters; this does not.
 */
export function compareCodePoints(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) {
    const a = left.charCodeAt(index);
    const b = right.charCodeAt(index);
    if (a === b) continue;
    // Surrogates (D800–DFFF) encode code points above FFFF: rank them above
    // every other unit, keeping their relative order.
    const rankA = a >= 0xd800 && a <= 0xdfff ? a + 0x10000 : a;
    const rankB = b >= 0xd800 && b <= 0xdfff ? b + 0x10000 : b;
    return rankA - rankB;
  }
  return left.length - right.length;
}
