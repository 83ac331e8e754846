import { isMarkerSpace, matchMarker, type MarkerName } from './markers.ts';

/**
 * One line of envelope text, as the reference's line scanner sees it: the
 * `\n` is not part of the line, and one `\r` before it is dropped.
 */
export interface ScannedLine {
  /** 1-based line number. */
  number: number;
  /** Index of the line's first character. */
  start: number;
  /** Index just past the line's last character, excluding a dropped `\r`. */
  contentEnd: number;
  /** Index of the next line's first character. */
  next: number;
  /** True when a `\r` was dropped from the end of the line. */
  droppedCR: boolean;
  /** The marker this line holds, if any. */
  marker: MarkerName | undefined;
}

/**
 * Visits the lines of `text` from `from` (a line start) onwards; stops when
 * `visit` returns false. A final `\n` yields no extra empty line, as with
 * Go's `bufio.ScanLines`.
 */
export function scanLines(text: string, visit: (line: ScannedLine) => boolean, from = 0, firstNumber = 1): void {
  const length = text.length;
  let start = from;
  let number = firstNumber;
  const line: ScannedLine = { number, start, contentEnd: 0, next: 0, droppedCR: false, marker: undefined };
  while (start < length) {
    let end = text.indexOf('\n', start);
    const next = end === -1 ? length : end + 1;
    if (end === -1) end = length;
    let contentEnd = end;
    const droppedCR = contentEnd > start && text.charCodeAt(contentEnd - 1) === 13;
    if (droppedCR) contentEnd -= 1;
    line.number = number;
    line.start = start;
    line.contentEnd = contentEnd;
    line.next = next;
    line.droppedCR = droppedCR;
    line.marker = markerAt(text, start, contentEnd);
    if (!visit(line)) return;
    start = next;
    number += 1;
  }
}

/**
 * The marker held by `text[start, end)`. Most lines do not begin with `<`
 * after white space, so they are rejected without slicing.
 */
export function markerAt(text: string, start: number, end: number): MarkerName | undefined {
  let index = start;
  while (index < end && isMarkerSpace(text.charCodeAt(index))) index += 1;
  if (index >= end || text.charCodeAt(index) !== 60) return undefined;
  return matchMarker(text.slice(index, end));
}
