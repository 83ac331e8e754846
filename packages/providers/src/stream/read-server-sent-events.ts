import { badResponse } from '../call/bad-response.ts';
import { ServerSentEventParser, type ServerSentEvent } from './server-sent-event-parser.ts';

/** How much of a body left unread after its last event is read and dropped before it is cancelled. */
export interface DrainLimits {
  maxBytes: number;
  maxMs: number;
}

/**
 * What a stream has after its last event is at most the chunked encoding's end
 * (a few bytes, a moment later); 64 KiB or one second is far beyond that and
 * still bounds what a misbehaving server can make us read.
 */
export const DRAIN_LIMITS: DrainLimits = { maxBytes: 64 * 1024, maxMs: 1_000 };

/** Options of {@link readServerSentEvents}. */
export interface ReadServerSentEventsOptions {
  /** The stream's last event (OpenAI's `data: [DONE]`): reading stops there, and it is not yielded. */
  isLast?: (event: ServerSentEvent) => boolean;
  /**
   * With `isLast`: whether a body that ends before its last event is a failed
   * call (default true): the iteration throws `PROVIDER_BAD_RESPONSE`, which
   * is not retried, as no bad response is (the loop's `resume` asks again). `false` ends the
   * iteration as at the last event, for a caller that checks the stream's end
   * itself (the built-in OpenAI reader checks its finish chunk).
   */
  requireLast?: boolean;
  /** Bounds on reading the rest of the body after the last event; default {@link DRAIN_LIMITS}. */
  drain?: DrainLimits;
}

/**
 * The events of a `text/event-stream` response body (see
 * {@link ServerSentEventParser} for the format), one by one.
 *
 * At the event `isLast` accepts, the iteration ends but the body is not
 * cancelled: what is left of it is read and dropped in the background (at most
 * `drain.maxBytes`, within `drain.maxMs`), and only then cancelled. Cancelling
 * a body whose end has not arrived yet closes its connection, and a server that
 * writes its last event and the end of the body separately would then cost
 * every call a new connection (measured with the `openai` SDK, which cancels
 * at `[DONE]`: 19 connections for 10 calls instead of 1). Any other early stop
 * — a `break`, a throw in the loop — cancels the body at once, so a server
 * still generating is stopped. A request that is aborted errors its body,
 * which ends a drain at once. A body that ends before the event `isLast`
 * accepts throws `PROVIDER_BAD_RESPONSE` (the server or the connection cut the
 * stream short), unless `requireLast` is false.
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
  options: ReadServerSentEventsOptions = {},
): AsyncGenerator<ServerSentEvent, void, undefined> {
  const reader = body.getReader();
  const parser = new ServerSentEventParser();
  let settled = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      const events = done ? parser.end() : parser.push(value);
      for (const event of events) {
        if (options.isLast?.(event) === true) {
          settled = true;
          if (!done) drainInBackground(reader, options.drain ?? DRAIN_LIMITS);
          return;
        }
        yield event;
      }
      if (done) {
        settled = true;
        // The one thing the caller's loop cannot tell apart: a stream that reached its end and one cut short.
        if (options.isLast !== undefined && options.requireLast !== false) throw badResponse('the event stream ended before its last event: the server or the connection cut it short');
        return;
      }
    }
  } finally {
    if (!settled) reader.cancel().catch(() => {});
  }
}

/** Reads the rest of a body and drops it, so its connection can be reused; cancels it past the limits. */
function drainInBackground(reader: ReadableStreamDefaultReader<Uint8Array>, limits: DrainLimits): void {
  let bytes = 0;
  const cancel = (): void => {
    clearTimeout(timer);
    reader.cancel().catch(() => {});
  };
  const timer = setTimeout(cancel, limits.maxMs);
  timer.unref();
  const next = (): void => {
    reader.read().then(
      ({ done, value }) => {
        if (done) return clearTimeout(timer);
        bytes += value.byteLength;
        if (bytes > limits.maxBytes) return cancel();
        next();
      },
      () => clearTimeout(timer), // the body errored (an abort, a dropped connection): nothing left to keep
    );
  };
  next();
}
