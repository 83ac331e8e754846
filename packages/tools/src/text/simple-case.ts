/**
 * Upper and lower case as Go's `strings.ToUpper` / `ToLower` give them: each
 * character mapped on its own by Unicode's simple case mapping, so the
 * length in characters never changes. JavaScript's `toUpperCase` applies the
 * full mapping (`ß` → `SS`, `ﬁ` → `FI`) and, lowering, the final-sigma rule
 * (`ΣΑΣ` → `σας`); Go gives `ß`, `ﬁ` and `σασ`.
 */

/**
 * The characters whose full mapping is several characters but whose simple
 * mapping is one other character (UnicodeData.txt): Greek letters with
 * ypogegrammeni go to their prosgegrammeni forms; `İ` lowers to `i`. Every
 * other character with a multi-character full mapping has no simple one and
 * stays as it is.
 */
const SIMPLE_UPPER = new Map<number, number>([
  ...[0x1f80, 0x1f90, 0x1fa0].flatMap((first) => Array.from({ length: 8 }, (_, index): [number, number] => [first + index, first + index + 8])),
  [0x1fb3, 0x1fbc],
  [0x1fc3, 0x1fcc],
  [0x1ff3, 0x1ffc],
]);
const SIMPLE_LOWER = new Map<number, number>([[0x130, 0x69]]);

const ASCII = /^[\x00-\x7f]*$/;

function mapEach(text: string, full: (character: string) => string, simple: ReadonlyMap<number, number>): string {
  let out = '';
  for (const character of text) {
    const mapped = full(character);
    // One character stays one: a mapping to several characters is replaced by the simple one, or none.
    if (mapped.length <= 2 && [...mapped].length === 1) out += mapped;
    else {
      const code = simple.get(character.codePointAt(0) as number);
      out += code === undefined ? character : String.fromCodePoint(code);
    }
  }
  return out;
}

/** `text` in upper case, character by character (Go's `strings.ToUpper`). */
export function toUpperSimple(text: string): string {
  return ASCII.test(text) ? text.toUpperCase() : mapEach(text, (character) => character.toUpperCase(), SIMPLE_UPPER);
}

/** `text` in lower case, character by character (Go's `strings.ToLower`; no final-sigma rule). */
export function toLowerSimple(text: string): string {
  return ASCII.test(text) ? text.toLowerCase() : mapEach(text, (character) => character.toLowerCase(), SIMPLE_LOWER);
}
