/**
 * The strict one-shot parser of seed 003 §3 (behaviour of the reference
 * parser, reference doc §3.3, with its byte limits counted in UTF-8).
 */
import type { Envelope, ParseResult } from './envelope.ts';
import { EnvelopeEncodingError, MarkersInvalidError, SectionMissingError, SectionOrderError } from './errors.ts';
import type { Lint } from './lint.ts';
import { looksLikeMarker, markerLine, sectionRank, type MarkerName, type SectionName } from './markers.ts';
import { isUtf8 } from 'node:buffer';
import { decodedByteOffsets, stringByteOffsets, type ByteOffsets } from './byte-offsets.ts';
import { scanLines, type ScannedLine } from './scan-lines.ts';
import { checkSizes, type MarkerLineSpan, type SizedSegment } from './size-check.ts';
import { firstInvalidUtf8Offset, tryDecodeUtf8 } from './utf8.ts';
import { kindOf } from './argument-type.ts';

/** The run of content lines that follows one marker line. */
interface Segment extends SizedSegment {
  marker: MarkerName;
  /** False for a duplicate section (its content is discarded) and for START. */
  kept: boolean;
  markerLineNumber: number;
  start: number;
  end: number;
  /** True when a non-blank content line was seen. */
  hasText: boolean;
  firstTextLine: number;
}

/** Where END was found, when it was. */
interface EndMarker extends MarkerLineSpan {
  lineNumber: number;
}

/**
 * Parses an AEIOU v4 envelope strictly.
 *
 * - The first line, trimmed, must be `<<<NSENV:V4:START>>>`.
 * - A later line is a marker when its trimmed text is exactly a marker.
 * - The first occurrence of a section wins; each later one adds the lint
 *   `LINT_DUP_SECTION_IGNORED` and its content is discarded.
 * - Sections must come in the order USERDATA, [SCRATCHPAD], [OUTPUT], ACTIONS;
 *   USERDATA and ACTIONS are required.
 * - Section content keeps inner and leading blank lines, loses trailing
 *   white space; `\r\n` line ends read as `\n`; text after END is ignored.
 * - Limits in UTF-8 bytes: envelope ≤ 1 MiB, each section ≤ 512 KiB.
 *
 * Bytes must be valid UTF-8 up to the END line. Throws an {@link EnvelopeError}
 * subclass on any violation; never throws anything else.
 */
export function parseEnvelope(input: string | Uint8Array): ParseResult {
  if (typeof input === 'string') return parseText(input, stringByteOffsets);
  // A caller's mistake, not an envelope's: a JavaScript caller was never type-checked.
  if (!(input instanceof Uint8Array)) throw new TypeError(`parseEnvelope takes the reply as a string or UTF-8 bytes, got ${kindOf(input)}`);
  if (!isUtf8(input)) return parseInvalidBytes(input);
  const text = Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8');
  return parseText(text, (decoded) => decodedByteOffsets(decoded, input));
}

function parseText(text: string, byteOffsets: (text: string) => ByteOffsets): ParseResult {
  const lints: Lint[] = [];
  const segments: Segment[] = [];
  let end: EndMarker | undefined;
  let droppedCRs = 0;
  let current: Segment | undefined;

  scanLines(text, (line) => {
    if (line.number === 1) {
      if (line.marker !== 'START') throw startMissing(text.slice(line.start, line.contentEnd));
      current = openSegment('START', false, line);
      segments.push(current);
      if (line.droppedCR) droppedCRs += 1;
      return true;
    }
    if (line.marker === 'END') {
      end = { lineNumber: line.number, start: line.start, contentEnd: line.contentEnd, next: line.next };
      return false;
    }
    if (line.droppedCR) droppedCRs += 1;
    if (line.marker !== undefined) {
      const duplicate = line.marker === 'START' || segments.some((segment) => segment.kept && segment.marker === line.marker);
      if (duplicate) {
        lints.push({
          code: 'LINT_DUP_SECTION_IGNORED',
          message: `duplicate section '${line.marker}' ignored (first instance is used)`,
          line: line.number,
        });
      }
      current = openSegment(line.marker, !duplicate, line);
      segments.push(current);
      return true;
    }
    const segment = current!;
    if (segment.lineCount === 0) segment.start = line.start;
    segment.lineCount += 1;
    segment.end = line.contentEnd;
    if (line.droppedCR) segment.droppedCRs += 1;
    if (!segment.hasText && !isBlank(text, line.start, line.contentEnd)) {
      segment.hasText = true;
      segment.firstTextLine = line.number;
    }
    if (text.charCodeAt(line.start) === 60 || text.charCodeAt(line.contentEnd - 1) === 62) {
      const content = text.slice(line.start, line.contentEnd);
      if (looksLikeMarker(content)) {
        lints.push({
          code: 'LINT_MARKER_LIKE_LINE',
          message: `line ${line.number} looks like an envelope marker but is not one of <<<NSENV:V4:{START|USERDATA|SCRATCHPAD|OUTPUT|ACTIONS|END}>>>; it was read as content`,
          line: line.number,
        });
      }
    }
    return true;
  });

  if (text.length === 0) throw startMissing('');
  checkSizes({ text, segments, end, droppedCRsBeforeEnd: droppedCRs }, byteOffsets(text));
  if (end === undefined) {
    const lines = lineCountOf(text);
    throw new MarkersInvalidError(
      `missing END marker: the envelope must end with a line ${markerLine('END')} (the text ended at line ${lines})`,
      { line: lines },
      'missing-end',
    );
  }
  checkOrder(segments);
  return { envelope: buildEnvelope(text, segments, end, lints), lints };
}

function openSegment(marker: MarkerName, kept: boolean, line: ScannedLine): Segment {
  return {
    marker,
    kept,
    markerLineNumber: line.number,
    markerLine: { start: line.start, contentEnd: line.contentEnd, next: line.next },
    lineCount: 0,
    start: 0,
    end: 0,
    droppedCRs: 0,
    hasText: false,
    firstTextLine: 0,
  };
}

function buildEnvelope(text: string, segments: Segment[], end: EndMarker, lints: Lint[]): Envelope {
  const content = (name: SectionName): string | null => {
    const segment = segments.find((candidate) => candidate.kept && candidate.marker === name);
    return segment === undefined ? null : segmentText(text, segment);
  };
  const userdata = content('USERDATA');
  if (userdata === null) {
    throw new SectionMissingError(`the USERDATA section is missing: add a line ${markerLine('USERDATA')} after START, followed by the JSON input`, { line: end.lineNumber }, 'USERDATA');
  }
  const actions = content('ACTIONS');
  if (actions === null) {
    throw new SectionMissingError(`the ACTIONS section is missing: add a line ${markerLine('ACTIONS')} before END, followed by exactly one command … endcommand block`, { line: end.lineNumber }, 'ACTIONS');
  }
  const preamble = segments[0]!;
  if (preamble.hasText) {
    lints.unshift({
      code: 'LINT_TEXT_BEFORE_SECTION',
      message: `text between START and the first section was ignored (from line ${preamble.firstTextLine})`,
      line: preamble.firstTextLine,
    });
  }
  return { userdata, scratchpad: content('SCRATCHPAD'), output: content('OUTPUT'), actions };
}

function checkOrder(segments: Segment[]): void {
  let highest: Segment | undefined;
  for (const segment of segments) {
    if (!segment.kept || segment.marker === 'START' || segment.marker === 'END') continue;
    if (highest !== undefined && sectionRank(segment.marker) < sectionRank(highest.marker as SectionName)) {
      throw new SectionOrderError(
        `section ${segment.marker} at line ${segment.markerLineNumber} comes after ${highest.marker} (line ${highest.markerLineNumber}); the order is USERDATA, [SCRATCHPAD], [OUTPUT], ACTIONS`,
        { line: segment.markerLineNumber },
      );
    }
    highest = segment;
  }
}

/** A segment's content: its lines joined by `\n`, trailing white space removed. */
function segmentText(text: string, segment: Segment): string {
  if (segment.lineCount === 0) return '';
  let content = text.slice(segment.start, segment.end);
  if (segment.droppedCRs > 0) content = content.replace(/\r\n/g, '\n');
  let end = content.length;
  while (end > 0) {
    const code = content.charCodeAt(end - 1);
    if (code !== 32 && code !== 9 && code !== 10 && code !== 13) break;
    end -= 1;
  }
  return end === content.length ? content : content.slice(0, end);
}

function isBlank(text: string, start: number, end: number): boolean {
  for (let index = start; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code !== 32 && code !== 9) return false;
  }
  return true;
}

function startMissing(found: string): MarkersInvalidError {
  const shown = found.length > 80 ? `${found.slice(0, 80)}…` : found;
  return new MarkersInvalidError(
    `line 1: expected the START marker ${markerLine('START')} as the first line, found ${JSON.stringify(shown)}; nothing may come before it, not even a blank line or a code fence`,
    { line: 1 },
    'missing-start',
  );
}

function lineCountOf(text: string): number {
  let count = 0;
  scanLines(text, () => {
    count += 1;
    return true;
  });
  return Math.max(count, 1);
}

/**
 * Parses bytes that are not valid UTF-8. Text after END is ignored, bytes
 * included, so the complete lines before the first invalid byte are parsed:
 * when they hold the whole envelope, or fail in a way the line scan reports
 * before reaching the bad byte (line 1 not START, a size limit), that is the
 * result; otherwise the encoding error is.
 */
function parseInvalidBytes(bytes: Uint8Array): ParseResult {
  const offset = firstInvalidUtf8Offset(bytes);
  const prefix = tryDecodeUtf8(bytes.subarray(0, offset)) ?? '';
  const completeLines = prefix.slice(0, prefix.lastIndexOf('\n') + 1);
  if (completeLines.length > 0) {
    try {
      return parseText(completeLines, stringByteOffsets);
    } catch (error) {
      if (!(error instanceof MarkersInvalidError && error.reason === 'missing-end')) throw error;
    }
  }
  const line = prefix.split('\n').length;
  throw new EnvelopeEncodingError(
    `the envelope is not valid UTF-8: invalid byte 0x${bytes[offset]!.toString(16).padStart(2, '0')} at byte offset ${offset} (line ${line})`,
    { line },
  );
}
