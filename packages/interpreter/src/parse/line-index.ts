/**
 * Converts string offsets to 1-based line and column numbers. Columns count
 * characters (code points), as the reference's ANTLR runtime counts runes:
 * a character outside the Basic Multilingual Plane (😀) is one column,
 * though it is two UTF-16 units of the string.
 */

/** A high surrogate: the first unit of a character above U+FFFF. */
const ASTRAL = /[\uD800-\uDBFF]/;

/** Offsets of every line start, for binary search. */
export class LineIndex {
  readonly #text: string;
  readonly #starts: number[];
  /** Whether the text has any character above U+FFFF; when not (nearly always), a column is an offset difference. */
  readonly #anyAstral: boolean;
  /** Per line, once known: whether it has such a character. */
  readonly #astralLines: (boolean | undefined)[] = [];

  constructor(text: string) {
    const starts = [0];
    let index = text.indexOf('\n');
    while (index !== -1) {
      starts.push(index + 1);
      index = text.indexOf('\n', index + 1);
    }
    this.#text = text;
    this.#starts = starts;
    this.#anyAstral = ASTRAL.test(text);
  }

  /** The 1-based line and column of `offset`. */
  position(offset: number): { line: number; column: number } {
    const starts = this.#starts;
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] as number) <= offset) low = middle;
      else high = middle - 1;
    }
    const start = starts[low] as number;
    return { line: low + 1, column: this.#anyAstral && this.#astralLine(low) ? this.#countCharacters(start, offset) + 1 : offset - start + 1 };
  }

  #astralLine(line: number): boolean {
    let astral = this.#astralLines[line];
    if (astral === undefined) {
      const end = this.#starts[line + 1] ?? this.#text.length;
      astral = ASTRAL.test(this.#text.slice(this.#starts[line], end));
      this.#astralLines[line] = astral;
    }
    return astral;
  }

  /** Characters from `start` to `offset`: a surrogate pair counts once. */
  #countCharacters(start: number, offset: number): number {
    const text = this.#text;
    let count = 0;
    for (let index = start; index < offset; index += 1) {
      count += 1;
      const unit = text.charCodeAt(index);
      if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < offset) {
        const next = text.charCodeAt(index + 1);
        if (next >= 0xdc00 && next <= 0xdfff) index += 1;
      }
    }
    return count;
  }
}
