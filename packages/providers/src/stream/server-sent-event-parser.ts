/** One server-sent event: its `event:` name (undefined when it has none, i.e. `message`) and its `data:` lines. */
export interface ServerSentEvent {
  event: string | undefined;
  /** The event's `data:` lines joined with `\n`. */
  data: string;
}

const CR = '\r';
const LINE_ENDS = /\r\n?/g;

/**
 * Turns the bytes of a `text/event-stream` body into events, as the HTML
 * standard's event-stream interpretation does: UTF-8 (a leading BOM dropped),
 * lines ended by CRLF, LF or CR, `:` comments skipped, one space after a
 * field's colon removed, `data:` lines joined with `\n`, an event dispatched
 * at a blank line when it has at least one `data:` line. `id:` and `retry:`
 * are read and ignored (a model call is never reconnected). Chunks may split
 * anywhere, a multi-byte character or a CRLF included.
 *
 * A parser is for one body: feed every chunk to {@link push}, then call
 * {@link end} once; an event the body did not finish with a blank line is
 * dropped, as the standard says.
 */
export class ServerSentEventParser {
  // The leading BOM is dropped here, not by the decoder: Node 24's decoder, given a BOM split across chunks, also drops
  // a U+FEFF right after it.
  readonly #decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /** Whether the body's first character has been decoded (and a BOM there dropped). */
  #started = false;
  /** Text after the last line end: the start of a line still arriving. */
  #partialLine = '';
  /** A chunk ended in CR: the next chunk's first character says whether it was CRLF. */
  #heldCR = false;
  #data: string[] | undefined;
  #event: string | undefined;

  /** The events the chunk completes (most chunks complete none or a few). */
  push(chunk: Uint8Array): ServerSentEvent[] {
    return this.#text(this.#decoder.decode(chunk, { stream: true }), false);
  }

  /** Ends the body: the events its last line end completes; a partial event is dropped. */
  end(): ServerSentEvent[] {
    return this.#text(this.#decoder.decode(), true);
  }

  #text(decoded: string, final: boolean): ServerSentEvent[] {
    if (!this.#started && decoded !== '') {
      this.#started = true;
      if (decoded.charCodeAt(0) === 0xfeff) decoded = decoded.slice(1);
    }
    let text = this.#heldCR ? CR + decoded : decoded;
    this.#heldCR = !final && text.endsWith(CR);
    if (this.#heldCR) text = text.slice(0, -1);
    if (text.includes(CR)) text = text.replace(LINE_ENDS, '\n');
    const events: ServerSentEvent[] = [];
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      const line = start === 0 && this.#partialLine !== '' ? this.#partialLine + text.slice(0, end) : text.slice(start, end);
      if (start === 0) this.#partialLine = '';
      start = end + 1;
      this.#line(line, events);
    }
    this.#partialLine = final ? '' : this.#partialLine + text.slice(start);
    if (final) {
      this.#data = undefined;
      this.#event = undefined;
    }
    return events;
  }

  #line(line: string, events: ServerSentEvent[]): void {
    if (line === '') {
      if (this.#data !== undefined) events.push({ event: this.#event, data: this.#data.join('\n') });
      this.#data = undefined;
      this.#event = undefined;
      return;
    }
    // The common case first: `data: ` lines are nearly every line of a model's stream.
    if (line.startsWith('data:')) {
      (this.#data ??= []).push(line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));
      return;
    }
    if (line.charCodeAt(0) === 58) return; // `:` starts a comment
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    const value = colon === -1 ? '' : line.charCodeAt(colon + 1) === 32 ? line.slice(colon + 2) : line.slice(colon + 1);
    if (field === 'data') (this.#data ??= []).push(value);
    else if (field === 'event') this.#event = value === '' ? undefined : value; // an empty name means `message`
  }
}
