/**
 * An incremental parser for streamed model replies: chunks in, envelope out.
 * Markers and multibyte characters may be split across chunks. It reports
 * the envelope as soon as the END line is complete (so a caller may stop the
 * stream), fails as soon as line 1 is not START (once longer than the 80
 * characters its error shows, before its newline) or a size limit is crossed,
 * and always gives the same result or error as {@link parseEnvelope} on the
 * whole text — by construction: whenever it decides, it hands the text so
 * far to `parseEnvelope`.
 */
import { TextDecoder } from 'node:util';
import type { ParseResult } from './envelope.ts';
import { MAX_ENVELOPE_BYTES, MAX_SECTION_BYTES } from './limits.ts';
import { parseEnvelope } from './parse-envelope.ts';
import { isMarkerSpace, markerLine } from './markers.ts';
import { markerAt } from './scan-lines.ts';
import { envelopeTooLarge } from './size-check.ts';
import { utf8Length } from './utf8.ts';
import { kindOf } from './argument-type.ts';

/** The START marker line, which line 1 must hold. */
const START_LINE = markerLine('START');

/** How many characters of a wrong line 1 the error shows (`parseEnvelope`'s `startMissing`); a longer line reads the same. */
const SHOWN_FIRST_LINE = 80;

/** `pending` until the END line is complete, then `complete`. */
export type StreamStatus = 'pending' | 'complete';

/** Parses an envelope pushed in pieces. Push only strings or only bytes. */
export class EnvelopeStreamParser {
  /** Complete lines seen so far, as the pieces of text that held them. */
  #lines: string[] = [];
  /** The unfinished last line, in pieces (joined only when a newline arrives). */
  #tail: string[] = [];
  #tailLength = 0;
  #lineNumber = 0;
  #total = 0;
  #section = 0;
  #result: ParseResult | undefined;
  #trailingLength = 0;
  #failure: unknown;
  #input: 'string' | 'bytes' | undefined;
  #decoder: TextDecoder | undefined;
  #bytes: Uint8Array[] = [];
  /** Line 1 while it arrives: how much of START it has matched after leading white space, -1 once it cannot be START. */
  #startMatched = 0;

  /** The parsed envelope once complete. */
  get result(): ParseResult | undefined {
    return this.#result;
  }

  /**
   * Once complete: how much of the text pushed up to the push that completed
   * it came after the END line, in UTF-16 code units (for string input: cut
   * that much off the end of what was pushed to keep the envelope alone,
   * whatever the chunking). Pushes after that are not counted. For byte input
   * it counts the characters decoded so far, not bytes. 0 before then.
   */
  get trailingLength(): number {
    return this.#trailingLength;
  }

  /**
   * Adds a chunk. Throws the codec's error as soon as the input is known to
   * be invalid, and a `TypeError` when strings and bytes are mixed.
   */
  push(chunk: string | Uint8Array): StreamStatus {
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#result !== undefined) return 'complete';
    if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) throw new TypeError(`EnvelopeStreamParser: push takes a string or UTF-8 bytes, got ${kindOf(chunk)}`);
    const kind = typeof chunk === 'string' ? 'string' : 'bytes';
    if (this.#input !== undefined && this.#input !== kind) throw new TypeError(`EnvelopeStreamParser: push only strings or only bytes; got ${kind} after ${this.#input}`);
    this.#input = kind;
    try {
      const text = typeof chunk === 'string' ? chunk : this.#decode(chunk, true);
      if (this.#result === undefined) this.#scan(text);
    } catch (error) {
      this.#failure = error;
      throw error;
    }
    return this.#result === undefined ? 'pending' : 'complete';
  }

  /** Ends the input and returns the result (or throws the error) `parseEnvelope` gives for the whole text. */
  end(): ParseResult {
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#result !== undefined) return this.#result;
    try {
      if (this.#decoder !== undefined) this.#tail.push(this.#decode(new Uint8Array(0), false));
      this.#result ??= parseEnvelope(this.#lines.join('') + this.#tail.join(''));
      return this.#result;
    } catch (error) {
      this.#failure = error;
      throw error;
    }
  }

  #decode(chunk: Uint8Array, stream: boolean): string {
    this.#decoder ??= new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    this.#bytes.push(chunk);
    try {
      return this.#decoder.decode(chunk, { stream });
    } catch {
      // The one-shot parser decides whether the bad byte lies after a
      // complete envelope (a result) or not (it throws the encoding error).
      this.#result = parseEnvelope(Buffer.concat(this.#bytes));
      return '';
    }
  }

  /**
   * Counts the newly completed lines as the one-shot parser does. Only the
   * new chunk is searched for a newline, and runs of content lines are
   * counted in one go (`length + 1` per line is the run's UTF-8 length less
   * its dropped `\r`s), so the whole stream costs one pass.
   */
  #scan(chunk: string): void {
    const lastNewline = chunk.lastIndexOf('\n');
    if (lastNewline === -1) {
      this.#tail.push(chunk);
      this.#tailLength += chunk.length;
      if (this.#lineNumber === 0) this.#followStart(chunk);
      this.#checkUnfinishedLine();
      return;
    }
    this.#tail.push(chunk.slice(0, lastNewline + 1));
    const text = this.#tail.join('');
    this.#lines.push(text);
    const rest = chunk.slice(lastNewline + 1);
    this.#tail = rest === '' ? [] : [rest];
    this.#tailLength = rest.length;
    const ascii = text.length === utf8Length(text);
    const bytesOf = (from: number, to: number) => (ascii ? to - from : utf8Length(text.slice(from, to)));
    let runStart = 0;
    let runCRs = 0;
    const flushRun = (to: number) => {
      const bytes = bytesOf(runStart, to) - runCRs;
      this.#total += bytes;
      this.#section += bytes;
      runCRs = 0;
    };
    for (let start = 0; start < text.length; ) {
      const newline = text.indexOf('\n', start);
      const droppedCR = newline > start && text.charCodeAt(newline - 1) === 13;
      const contentEnd = droppedCR ? newline - 1 : newline;
      const marker = markerAt(text, start, contentEnd);
      this.#lineNumber += 1;
      if (this.#lineNumber === 1) {
        if (marker !== 'START') this.#decide(0);
        this.#total = bytesOf(start, contentEnd);
      } else if (marker !== undefined) {
        flushRun(start);
        if (marker === 'END') {
          this.#result = this.#decide(text.length - (newline + 1));
          // What follows the END line: the rest of the completed lines, and the unfinished line after them.
          this.#trailingLength = text.length - (newline + 1) + this.#tailLength;
          return;
        }
        this.#total += bytesOf(start, contentEnd) + 1;
        this.#section = 0;
      } else if (droppedCR) {
        runCRs += 1;
      }
      start = newline + 1;
      if (marker !== undefined || this.#lineNumber === 1) runStart = start;
    }
    flushRun(text.length);
    if (this.#total > MAX_ENVELOPE_BYTES || this.#section > MAX_SECTION_BYTES) this.#decide(0);
    this.#checkUnfinishedLine();
  }

  /**
   * A line still being received that already takes the envelope over 1 MiB
   * (its UTF-16 length is a lower bound of its UTF-8 length) is where the
   * one-shot parse fails too, whatever follows on it — every line up to END
   * counts towards the total, marker or not — so fail now instead of
   * buffering on. (The section limit cannot be judged early: the line may
   * yet turn out to be a marker line, which no section counts.)
   */
  #checkUnfinishedLine(): void {
    if (this.#tailLength === 0) return;
    if (this.#lineNumber === 0) {
      // Line 1 that can no longer be START fails the one-shot parse whatever follows on it; past the characters
      // its error shows, the error is the same too. Without this, a reply streamed without a newline (prose,
      // a model gone wrong) was buffered without bound.
      // One character more than shown: a `\r` the line ends on so far is dropped as a line end's, so the line
      // must be longer than shown without it too, or the error would not show the `…` the whole line's does.
      if (this.#startMatched < 0 && this.#tailLength > SHOWN_FIRST_LINE + 1) parseEnvelope(this.#tail.join(''));
      // Line 1 that may still be START (white space around it, without end) over 1 MiB: whatever follows, the
      // envelope crosses the limit on line 1, as the one-shot parse of it says.
      if (this.#tailLength > MAX_ENVELOPE_BYTES) throw envelopeTooLarge(1);
      return;
    }
    // A `\r` the chunk ended on may be the first half of `\r\n`, which no line counts.
    const pendingCR = (this.#tail.at(-1) as string).endsWith('\r') ? 1 : 0;
    if (this.#total + this.#tailLength - pendingCR + 1 > MAX_ENVELOPE_BYTES) parseEnvelope(this.#lines.join('') + this.#tail.join(''));
  }

  /** Follows line 1 through a new piece of it: leading white space, the START marker, trailing white space. */
  #followStart(piece: string): void {
    for (let index = 0; index < piece.length && this.#startMatched >= 0; index += 1) {
      const code = piece.charCodeAt(index);
      const atEdge = this.#startMatched === 0 || this.#startMatched === START_LINE.length;
      if (atEdge && isMarkerSpace(code)) continue;
      this.#startMatched = this.#startMatched < START_LINE.length && code === START_LINE.charCodeAt(this.#startMatched) ? this.#startMatched + 1 : -1;
    }
  }

  /**
   * Hands the complete lines so far to `parseEnvelope`, less the last
   * `afterEnd` characters (text after END in the latest piece).
   */
  #decide(afterEnd: number): ParseResult {
    const text = this.#lines.join('');
    this.#lines = [text];
    return parseEnvelope(text.slice(0, text.length - afterEnd));
  }
}
