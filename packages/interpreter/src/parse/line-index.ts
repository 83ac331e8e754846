/** Converts string offsets to 1-based line and column numbers. */

/** Offsets of every line start, for binary search. */
export class LineIndex {
  readonly #starts: number[];

  constructor(text: string) {
    const starts = [0];
    let index = text.indexOf('\n');
    while (index !== -1) {
      starts.push(index + 1);
      index = text.indexOf('\n', index + 1);
    }
    this.#starts = starts;
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
    return { line: low + 1, column: offset - (starts[low] as number) + 1 };
  }
}
