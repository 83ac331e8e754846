/**
 * Watches what a model streams after its envelope's END line for the v4 DONE
 * marker. The model call never reads that text (`ask-model.ts`: the reply ends
 * with the END line), so a model that wrote `<<<LOOP:DONE>>> 4` under its
 * envelope saw its turn go on without a word and did the same again. The
 * watch keeps no text, only whether the marker was there, so the next turn can
 * be told (`marker-note.ts`). Only the first `limit` characters after END are
 * looked at: a call is stopped once that many have streamed, so a marker
 * further on is seen or not by chunking and timing alone.
 */
import { LOOP_DONE_MARKER } from '@askloop/envelope';

/** See the module comment. */
export class MarkerAfterEndWatch {
  readonly #limit: number;
  #read = 0;
  /** The last characters read, fewer than the marker's: a marker split across two pieces is still found. */
  #carry = '';
  #found = false;

  /** `limit`: how many characters after END are looked at. */
  constructor(limit: number) {
    this.#limit = limit;
  }

  /** True once the marker was in what streamed after END. */
  get found(): boolean {
    return this.#found;
  }

  /** Reads the next piece of what streamed after END. */
  push(piece: string): void {
    if (this.#found || this.#read >= this.#limit || piece === '') return;
    const read = piece.slice(0, this.#limit - this.#read);
    this.#read += read.length;
    const window = this.#carry + read;
    this.#found = window.includes(LOOP_DONE_MARKER);
    this.#carry = window.slice(-(LOOP_DONE_MARKER.length - 1));
  }
}
