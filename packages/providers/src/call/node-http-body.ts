/**
 * A response's body as `nodeHttpFetch` hands it on: a web stream read from
 * the socket only as fast as it is consumed, decoded when the server
 * compressed it, ending the way undici's bodies end.
 */
import type { IncomingMessage } from 'node:http';
import type { Readable, Transform } from 'node:stream';
// A namespace import, not named ones: Node 20 has no `createZstdDecompress`, and a named import of an export a Node
// lacks fails when it links the bundle (a SyntaxError), before the package's Node version check can say which Node it needs.
import * as zlib from 'node:zlib';

/** How many bytes of a body the stream holds before it stops reading from the socket (backpressure). */
const BODY_HIGH_WATER_MARK = 64 * 1024;

/**
 * The decompressing stream for a `content-encoding` `fetch` decodes; undefined for none (or one it passes through).
 * Flushed as undici flushes, so a body cut before its trailer still yields what arrived.
 */
function decoderFor(encoding: string | undefined): Transform | undefined {
  const sync = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip(sync);
    case 'deflate':
      return zlib.createInflate(sync);
    case 'br':
      return zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
    case 'zstd':
      return zlib.createZstdDecompress();
    default:
      return undefined;
  }
}

/**
 * The response's body as a web stream: read from the socket only as fast as
 * it is consumed; a reply cut off before its end errors it with
 * `TypeError('terminated')`, an abort with the signal's reason. Once it has
 * ended, however it ended, nothing more is read or handed on, and the
 * connection of a body not read to its end is closed. With `maxBytes`, the
 * body ends after that many (decoded) bytes, its connection closed: for an
 * error's body, which an SDK reads whole into its message.
 */
export function bodyStream(incoming: IncomingMessage, signal: AbortSignal | undefined, maxBytes = Number.POSITIVE_INFINITY): ReadableStream<Uint8Array> {
  const decoder = decoderFor(incoming.headers['content-encoding']);
  const source: Readable = decoder === undefined ? incoming : incoming.pipe(decoder);
  if (decoder !== undefined) incoming.on('error', (error) => decoder.destroy(error));
  let finished = false;
  let onAbort: (() => void) | undefined;
  const finish = (): boolean => {
    if (finished) return false;
    finished = true;
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
    return true;
  };
  /** Stops reading: the decoder too, whose output still in hand would otherwise reach a closed stream. */
  const stop = (): void => {
    source.destroy();
    incoming.destroy();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        onAbort = () => {
          if (!finish()) return;
          controller.error(signal?.reason);
          stop();
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        let left = maxBytes;
        source.on('data', (chunk: Buffer) => {
          if (finished) return;
          const kept = Math.min(chunk.byteLength, left);
          left -= kept;
          if (kept > 0) controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, kept));
          if (left <= 0) {
            // What is left unread is dropped with its connection.
            if (finish()) controller.close();
            stop();
            return;
          }
          if ((controller.desiredSize ?? 1) <= 0) source.pause();
        });
        source.on('end', () => {
          if (finish()) controller.close();
        });
        const terminated = (cause: unknown): void => {
          if (!finish()) return;
          controller.error(new TypeError('terminated', { cause }));
          // A body that does not decode: pipe() leaves the response paused on its connection, never to be freed.
          stop();
        };
        source.on('error', terminated);
        incoming.on('close', () => {
          // Closed before its end (the server or the connection went away) with no error to say so.
          if (!incoming.complete) terminated(new Error('the connection closed before the response ended'));
        });
      },
      pull() {
        source.resume();
      },
      cancel() {
        finish();
        stop();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: BODY_HIGH_WATER_MARK }),
  );
}
