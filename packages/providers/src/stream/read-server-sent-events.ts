import { ServerSentEventParser, type ServerSentEvent } from './server-sent-event-parser.ts';

/** How much of a body left unread is read and dropped before it is cancelled. */
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

/**
 * The events of a `text/event-stream` response body (see
 * {@link ServerSentEventParser} for the format), one by one.
 *
 * Stopping early — a `break` at a stream's last event (OpenAI's `[DONE]`), or a
 * throw — does not cancel the body: what is left is read and dropped in the
 * background (at most `limits.maxBytes`, within `limits.maxMs`), and only then
 * is the body cancelled. Cancelling a body whose end has not arrived yet closes
 * its connection, and a server that writes its last event and the end of the
 * body separately would then cost every call a new connection (measured with
 * the `openai` SDK, which cancels at `[DONE]`: 19 connections for 10 calls
 * instead of 1). A request that is aborted errors its body, which ends the
 * drain at once.
 */
export async function* readServerSentEvents(
  body: ReadableStream<Uint8Array>,
  limits: DrainLimits = DRAIN_LIMITS,
): AsyncGenerator<ServerSentEvent, void, undefined> {
  const reader = body.getReader();
  const parser = new ServerSentEventParser();
  let ended = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        yield* parser.end();
        return;
      }
      yield* parser.push(value);
    }
  } finally {
    if (!ended) drainInBackground(reader, limits);
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
