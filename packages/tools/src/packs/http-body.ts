/**
 * The http pack's reading of a response body: decoded as Node's `fetch`
 * decoded it, and bounded. The pack sends no `accept-encoding`, but servers
 * and CDNs that compress regardless (or a program that asks with its own
 * `accept-encoding` header) send `content-encoding: gzip`; the program gets
 * the text, not the compressed bytes. `maxBytes` bounds the decoded body,
 * the text the program gets, so a small compressed bomb stops at the limit.
 */
import type { IncomingMessage } from 'node:http';
import { pipeline } from 'node:stream/promises';
import type { Transform } from 'node:stream';
// A namespace import, as in the providers' node-http-body.ts: a named import of `createZstdDecompress`, which Node 20
// lacks, fails when the bundle links, before the package's Node version check can say which Node it needs.
import * as zlib from 'node:zlib';
import { ToolError } from '../errors/tool-error.ts';

/** More codings than this fail the read, as fetch (undici) refuses them: each is a decoder the body passes through. */
const MAX_CODINGS = 5;

// Lenient like fetch: a body cut short at its end still gives what it decoded.
const ZLIB_LENIENT = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
const BROTLI_LENIENT = { flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH };

const DECODERS: Readonly<Record<string, () => Transform>> = {
  gzip: () => zlib.createGunzip(ZLIB_LENIENT),
  'x-gzip': () => zlib.createGunzip(ZLIB_LENIENT),
  deflate: () => zlib.createInflate(ZLIB_LENIENT),
  br: () => zlib.createBrotliDecompress(BROTLI_LENIENT),
  zstd: () => zlib.createZstdDecompress(),
};

/** Statuses whose response has no body, whatever its headers say. */
const NO_BODY: ReadonlySet<number> = new Set([204, 205, 304]);

/**
 * The decoders for `response`'s `content-encoding`, in the order the body
 * passes through them (the last coding applied is undone first). None when a
 * coding is unknown: the body is then returned as sent, as fetch does.
 */
function decodersFor(response: IncomingMessage): Transform[] {
  const header = response.headers['content-encoding'];
  if (header === undefined || NO_BODY.has(response.statusCode ?? 0)) return [];
  const codings = header
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length > MAX_CODINGS) throw new ToolError('HTTP_FAILED', `the response's content-encoding lists ${codings.length} codings; at most ${MAX_CODINGS} are decoded`);
  if (!codings.every((coding) => coding in DECODERS)) return [];
  return codings.reverse().map((coding) => DECODERS[coding]!());
}

/**
 * The body of `response` as UTF-8 text, decoded per its `content-encoding`;
 * `HTTP_TOO_LARGE` once the decoded body passes `maxBytes`. Any failure
 * (the limit, a body that does not decode, the request's abort) destroys the
 * response and with it the connection.
 */
export async function readResponseBody(response: IncomingMessage, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let total = 0;
  let decoders: Transform[];
  try {
    decoders = decodersFor(response);
  } catch (error) {
    response.destroy();
    throw error;
  }
  const consume = async (source: AsyncIterable<Buffer>): Promise<void> => {
    for await (const chunk of source) {
      total += chunk.byteLength;
      if (total > maxBytes) throw new ToolError('HTTP_TOO_LARGE', `response body is larger than ${maxBytes} bytes`);
      chunks.push(chunk);
    }
  };
  // `pipeline` takes any number of transforms, but its types only fixed counts: hence the cast.
  await (pipeline as (...stages: unknown[]) => Promise<void>)(response, ...decoders, consume);
  return Buffer.concat(chunks).toString('utf8');
}
