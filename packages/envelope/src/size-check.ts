/**
 * The size limits of seed 003 §3.4, counted as the reference counts them
 * (reference doc §3.3): the envelope is line 1 plus `length + 1` for every
 * later line up to END; a section is `length + 1` for each of its content
 * lines. Lengths are UTF-8 bytes of the line without its `\r\n`/`\n`.
 */
import type { ByteOffsets } from './byte-offsets.ts';
import { EnvelopeSizeError } from './errors.ts';
import { MAX_ENVELOPE_BYTES, MAX_SECTION_BYTES } from './limits.ts';
import type { MarkerName } from './markers.ts';
import { scanLines } from './scan-lines.ts';
import { utf8Length } from './utf8.ts';

/** A marker line, by string indices. */
export interface MarkerLineSpan {
  /** Index of the line's first character. */
  start: number;
  /** Index just past its content (before a dropped `\r`). */
  contentEnd: number;
  /** Index of the next line, or the text length at the end. */
  next: number;
}

/** The run of content lines after one marker line. */
export interface SizedSegment {
  markerLine: MarkerLineSpan;
  lineCount: number;
  /** How many of its lines had a `\r` dropped. */
  droppedCRs: number;
}

/** What the scan found, for counting. */
export interface SizeInput {
  text: string;
  segments: readonly SizedSegment[];
  /** The END line, when there is one. */
  end: MarkerLineSpan | undefined;
  /** Lines with a dropped `\r` before END (or in the whole text without END). */
  droppedCRsBeforeEnd: number;
}

/**
 * Throws {@link EnvelopeSizeError} naming the first line at which a limit is
 * crossed. Counting needs only the byte offsets of marker lines; short text
 * needs no counting at all (a UTF-16 unit is at most 3 UTF-8 bytes).
 */
export function checkSizes(input: SizeInput, offsets: ByteOffsets): void {
  const { text, segments, end } = input;
  if (text.length * 3 <= MAX_SECTION_BYTES) return;
  const endsWithNewline = text.charCodeAt(text.length - 1) === 10;
  let over = false;
  segments.forEach((segment, index) => {
    if (over || segment.lineCount === 0) return;
    const marker = segment.markerLine;
    const contentStart = offsets.markerLineStart(marker.start) + utf8Length(text.slice(marker.start, marker.next));
    const following = segments[index + 1]?.markerLine ?? end;
    const contentEnd = following === undefined ? offsets.total() + (endsWithNewline ? 0 : 1) : offsets.markerLineStart(following.start);
    over = contentEnd - contentStart - segment.droppedCRs > MAX_SECTION_BYTES;
  });
  if (!over) {
    const total =
      end === undefined
        ? offsets.total() - (endsWithNewline ? 1 : 0)
        : offsets.markerLineStart(end.start) + utf8Length(text.slice(end.start, end.contentEnd));
    over = total - input.droppedCRsBeforeEnd > MAX_ENVELOPE_BYTES;
  }
  if (over) throw findCrossing(text, end === undefined ? text.length : end.contentEnd);
}

/**
 * Throws {@link EnvelopeSizeError} when a bare `command … endcommand` block,
 * recovered as ACTIONS from a reply without an envelope, is over a section's
 * 512 KiB: the same program inside an envelope is refused so. `firstLine` is
 * the reply's line the block starts on, for the error's line.
 */
export function checkBareActionsSize(block: string, firstLine: number): void {
  if (block.length * 3 <= MAX_SECTION_BYTES) return;
  let section = 0;
  const lines = block.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    section += utf8Length(lines[index] as string) + 1;
    if (section > MAX_SECTION_BYTES) {
      const line = firstLine + index;
      throw sectionTooLarge('section ACTIONS (a command block without an envelope)', line);
    }
  }
}

/** The error of a section (`what`: `section ACTIONS`) that crosses 512 KiB at `line`. */
function sectionTooLarge(what: string, line: number): EnvelopeSizeError {
  return new EnvelopeSizeError(`${what} is larger than ${MAX_SECTION_BYTES} bytes (512 KiB) at line ${line}; shorten it`, { line });
}

/** The error of an envelope that crosses 1 MiB at `line`. */
export function envelopeTooLarge(line: number): EnvelopeSizeError {
  return new EnvelopeSizeError(`the envelope is larger than ${MAX_ENVELOPE_BYTES} bytes (1 MiB) at line ${line}; shorten it`, { line });
}

/** Re-counts line by line to name the line where a limit is first crossed. */
function findCrossing(text: string, countedEnd: number): EnvelopeSizeError {
  let total = 0;
  let section = 0;
  let sectionName: MarkerName = 'START';
  let error: EnvelopeSizeError | undefined;
  scanLines(text, (line) => {
    const bytes = utf8Length(text.slice(line.start, line.contentEnd));
    total += line.number === 1 ? bytes : bytes + 1;
    if (total > MAX_ENVELOPE_BYTES) {
      error = envelopeTooLarge(line.number);
      return false;
    }
    if (line.marker !== undefined) {
      section = 0;
      sectionName = line.marker;
    } else if (line.number > 1) {
      section += bytes + 1;
      if (section > MAX_SECTION_BYTES) {
        const what = sectionName === 'START' ? 'the text before the first section' : `section ${sectionName}`;
        error = sectionTooLarge(what, line.number);
        return false;
      }
    }
    return line.contentEnd < countedEnd;
  });
  return error ?? new EnvelopeSizeError('the envelope is over a size limit', {});
}
