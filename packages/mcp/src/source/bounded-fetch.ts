/**
 * The fetch a Streamable HTTP server is reached with: its answers are read at
 * most `limit` bytes a message, as the SDK's stdio transport reads a stdio
 * server's. The SDK reads an HTTP answer whole before anything measures it
 * (`response.json()`, or an event of an event stream), so a server that
 * answered with hundreds of megabytes held them all in the host's memory
 * before `maxResultBytes` refused the result. Past the limit the body fails
 * and `onOverflow` is told, once; the connection is then closed, as a stdio
 * one is.
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/** Statuses a `Response` may not carry a body with. */
const NULL_BODY: ReadonlySet<number> = new Set([204, 205, 304]);
const LF = 0x0a;
const CR = 0x0d;

/** Counts the bytes of an event stream's current event: its lines up to the blank line that ends it. */
function eventCounter(): (chunk: Uint8Array) => number {
  let size = 0;
  let atLineStart = true;
  let afterCR = false;
  let largest = 0;
  return (chunk) => {
    largest = size;
    for (const byte of chunk) {
      // CR LF is one line end.
      if (afterCR && byte === LF) {
        afterCR = false;
        continue;
      }
      afterCR = false;
      if (byte === LF || byte === CR) {
        if (atLineStart) size = 0; // a blank line: the event ended
        atLineStart = true;
        afterCR = byte === CR;
        continue;
      }
      atLineStart = false;
      size += 1;
      if (size > largest) largest = size;
    }
    return largest;
  };
}

/** Counts a whole body's bytes. */
function bodyCounter(): (chunk: Uint8Array) => number {
  let size = 0;
  return (chunk) => (size += chunk.byteLength);
}

/**
 * A fetch whose response bodies fail once a message passes `limit` bytes: an
 * event stream's event (`text/event-stream`, which stays open for the
 * server's notifications), any other body whole.
 */
export function boundedFetch(limit: number, onOverflow: () => void, base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const response = await base(url, init);
    // A status whose response has no body (204, 205, 304), or an opaque one, is passed on as it is.
    if (response.body === null || response.status < 200 || NULL_BODY.has(response.status)) return response;
    const stream = /^\s*text\/event-stream\b/i.test(response.headers.get('content-type') ?? '');
    const count = stream ? eventCounter() : bodyCounter();
    let over = false;
    const body = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (over) return;
          if (count(chunk) > limit) {
            over = true;
            onOverflow();
            controller.error(new Error(`the server's answer passed ${limit} bytes in one message`));
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    const bounded = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    // What a made Response lacks: the SDK resolves a redirect's Location against `url`, as `fetch` gives it.
    Object.defineProperties(bounded, { url: { value: response.url }, redirected: { value: response.redirected } });
    return bounded;
  };
}
