/**
 * An incremental parser for streamed model replies: chunks in, envelope out.
 * Markers and multibyte characters may be split across chunks. It reports
 * the envelope as soon as the END line is complete (so a caller may stop the
 * stream), fails as soon as line 1 is not START or a size limit is crossed,
 * and always gives the same result or error as {@link parseEnvelope} on the
 * whole text — by construction: whenever it decides, it hands the text so
 * far to `parseEnvelope`.
 */
import { TextDecoder } from 'node:util';
import type { ParseResult } from './envelope.ts';
import { MAX_ENVELOPE_BYTES, MAX_SECTION_BYTES } from './limits.ts';
import { parseEnvelope } from './parse-envelope.ts';
import { markerAt } from './scan-lines.ts';
import { utf8Length } from './utf8.ts';

/** `pending` until the END line is complete, then `complete`. */
export type StreamStatus = 'pending' | 'complete';

/** Parses an envelope pushed in pieces. Push only strings or only bytes. */
export class EnvelopeStreamParser {
  /** Complete lines seen so far, as the chunks of text that held them. */
  #lines: string[] = [];
  /** The unfinished last line. */
  #tail = '';
  #lineNumber = 0;
  #total = 0;
  #section = 0;
  #result: ParseResult | undefined;
  #failure: unknown;
  #decoder: TextDecoder | undefined;
  #bytes: Uint8Array[] = [];

  /** The parsed envelope once complete. */
  get result(): ParseResult | undefined {
    return this.#result;
  }

  /** Adds a chunk. Throws the codec's error as soon as the input is known to be invalid. */
  push(chunk: string | Uint8Array): StreamStatus {
    if (this.#failure !== undefined) throw this.#failure;
    if (this.#result !== undefined) return 'complete';
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
      if (this.#decoder !== undefined) this.#tail += this.#decode(new Uint8Array(0), false);
      this.#result ??= parseEnvelope(this.#lines.join('') + this.#tail);
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
   * Counts the newly completed lines as the one-shot parser does. Runs of
   * content lines are counted in one go (`length + 1` per line is the run's
   * UTF-8 length less its dropped `\r`s), so a chunk costs one pass.
   */
  #scan(chunk: string): void {
    const text = this.#tail + chunk;
    const lastNewline = text.lastIndexOf('\n');
    if (lastNewline === -1) {
      this.#tail = text;
      return;
    }
    this.#lines.push(text.slice(0, lastNewline + 1));
    this.#tail = text.slice(lastNewline + 1);
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
    for (let start = 0; start <= lastNewline; ) {
      const newline = text.indexOf('\n', start);
      const droppedCR = newline > start && text.charCodeAt(newline - 1) === 13;
      const contentEnd = droppedCR ? newline - 1 : newline;
      const marker = markerAt(text, start, contentEnd);
      this.#lineNumber += 1;
      if (this.#lineNumber === 1) {
        if (marker !== 'START') this.#decide();
        this.#total = bytesOf(start, contentEnd);
      } else if (marker !== undefined) {
        flushRun(start);
        if (marker === 'END') {
          this.#result = this.#decide(text.length - (newline + 1));
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
    flushRun(lastNewline + 1);
    if (this.#total > MAX_ENVELOPE_BYTES || this.#section > MAX_SECTION_BYTES) this.#decide();
  }

  /**
   * Hands the complete lines so far to `parseEnvelope`, less the last
   * `afterEnd` characters of the current chunk (text after END).
   */
  #decide(afterEnd = this.#tail.length): ParseResult {
    const text = this.#lines.join('');
    this.#lines = [text];
    return parseEnvelope(text.slice(0, text.length - (afterEnd - this.#tail.length)));
  }
}
