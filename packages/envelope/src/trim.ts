/**
 * Trimming without regular expressions: `/[ \t]+$/` and friends backtrack
 * quadratically on long runs of white space followed by other text, and
 * model replies and program output are attacker-influenced.
 */

/** `text` without trailing characters for which `isTrimmed(code)` is true. */
export function trimEndWhere(text: string, isTrimmed: (code: number) => boolean): string {
  let end = text.length;
  while (end > 0 && isTrimmed(text.charCodeAt(end - 1))) end -= 1;
  return end === text.length ? text : text.slice(0, end);
}

/** Space or tab. */
export const isSpaceOrTab = (code: number): boolean => code === 32 || code === 9;

/** Space, tab or carriage return. */
export const isSpaceTabOrCR = (code: number): boolean => code === 32 || code === 9 || code === 13;

/**
 * Go's `unicode.IsSpace` (what `strings.TrimSpace` trims): ASCII white space,
 * U+0085, U+00A0 and the Unicode space separators. Unlike JavaScript's
 * `trim`, it does not include the byte-order mark U+FEFF.
 */
export function isGoSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** `text` without leading characters Go's `TrimSpace` would remove. */
export function trimStartGoSpace(text: string): string {
  let start = 0;
  while (start < text.length && isGoSpace(text.charCodeAt(start))) start += 1;
  return start === 0 ? text : text.slice(start);
}
