/**
 * The transport every provider uses unless it is given a `fetch`: the
 * `fetch` signature, served by `node:http` / `node:https` on kept-alive
 * connections. Node's own `fetch` (undici) spends about a quarter of a
 * millisecond of the host's main thread more on each model call (measured
 * in the controller's throughput benchmark, and in this package's request
 * benchmark); at hundreds of turns a second that is a tenth of the host.
 *
 * It takes the requests an SDK makes — a string or URL, a string or byte
 * body — and hands anything else to `fallback` (Node's `fetch`), which then
 * behaves exactly as it always did:
 * - a `Request` object, or a body that is a stream, form or blob;
 * - a scheme other than `http:` or `https:`;
 * - a process set to use proxies from the environment (`NODE_USE_ENV_PROXY`,
 *   `--use-env-proxy`, read when the transport is made), which only Node's
 *   `fetch` honours;
 * - an answer that redirects: the request is sent again through `fallback`,
 *   which follows the redirect as its `redirect` option says.
 *
 * What it keeps of `fetch`: the status, status text, headers (repeated ones
 * joined as `Headers` joins them) and a streamed body, decompressed when the
 * server compressed it; a failure to connect or a cut-off reply rejects (or
 * errors the body) with `TypeError('fetch failed' / 'terminated')` carrying
 * the cause, as Node's `fetch` does; an abort rejects with the signal's
 * reason. TLS is Node's, with its certificate checks and CAs
 * (`NODE_EXTRA_CA_CERTS` included).
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createZstdDecompress } from 'node:zlib';

/** Statuses whose response has no body (the `Response` constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
/** Statuses `fetch` follows (with a `location`); this transport sends such a request again through its fallback. */
const REDIRECT = new Set([301, 302, 303, 307, 308]);
/** How many bytes of a body the stream holds before it stops reading from the socket (backpressure). */
const BODY_HIGH_WATER_MARK = 64 * 1024;

type FetchInput = Parameters<typeof globalThis.fetch>[0];

/** Options of {@link createNodeHttpFetch}. */
export interface NodeHttpFetchOptions {
  /** What serves the requests this transport does not (default: Node's `fetch`, read at each call). */
  fallback?: typeof globalThis.fetch;
}

/**
 * A `fetch` over `node:http` / `node:https` with its own kept-alive
 * connections (idle ones never keep the process alive). See the module's
 * comment for what it serves and what it hands to `fallback`.
 */
export function createNodeHttpFetch(options: NodeHttpFetchOptions = {}): typeof globalThis.fetch {
  // Every idle connection is kept, as undici keeps them (Node's agent keeps 256 by default): a host of 1,000 sessions
  // opened a new connection for a quarter of its requests with the default (1,788 connections for 6,900 requests),
  // and 1,000 without a cap. An idle one closes when the server closes it or its Keep-Alive hint runs out.
  const keep = { keepAlive: true, maxFreeSockets: Number.POSITIVE_INFINITY };
  const agents = { http: new HttpAgent(keep), https: new HttpsAgent(keep) };
  const fallback = (input: FetchInput, init?: RequestInit): Promise<Response> => (options.fallback ?? globalThis.fetch)(input, init);
  // Read once, as Node's fetch reads it once at start-up (and reading the environment on every call costs).
  const proxied = usesEnvironmentProxy();
  return (input, init) => {
    const url = typeof input === 'string' ? parseUrl(input) : input instanceof URL ? input : undefined;
    const body = init?.body;
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || !isPlainBody(body) || proxied) {
      return fallback(input, init);
    }
    let sent: Promise<Response | typeof REDIRECTED>;
    try {
      sent = send(url, init ?? {}, body, url.protocol === 'https:' ? agents.https : agents.http);
    } catch (error) {
      // A header fetch refuses (Headers throws): rejected, as fetch rejects, never thrown.
      return Promise.reject(error);
    }
    return sent.then((response) => (response === REDIRECTED ? fallback(input, init) : response));
  };
}

/** The transport providers use by default. */
export const nodeHttpFetch: typeof globalThis.fetch = createNodeHttpFetch();

/** Marks an answer that redirected: its request goes again through the fallback. */
const REDIRECTED = Symbol('redirected');

type PlainBody = string | Uint8Array | ArrayBuffer | null | undefined;

function isPlainBody(body: unknown): body is PlainBody {
  return body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer;
}

function parseUrl(input: string): URL | undefined {
  return URL.canParse(input) ? new URL(input) : undefined;
}

/** Node's `fetch` reads proxies from the environment when told to (read when the transport is made); then it alone serves requests. */
function usesEnvironmentProxy(): boolean {
  const flag = process.env['NODE_USE_ENV_PROXY'];
  if (flag !== undefined && flag !== '' && flag !== '0') return true;
  return process.execArgv.includes('--use-env-proxy') || (process.env['NODE_OPTIONS']?.includes('--use-env-proxy') ?? false);
}

function send(url: URL, init: RequestInit, body: PlainBody, agent: HttpAgent): Promise<Response | typeof REDIRECTED> {
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const bytes = body === undefined || body === null ? undefined : typeof body === 'string' ? Buffer.from(body) : body instanceof ArrayBuffer ? new Uint8Array(body) : body;
  const method = (init.method ?? 'GET').toUpperCase();
  return new Promise((resolve, reject) => {
    let answered = false;
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, { method, headers: requestHeaders(init.headers, bytes), agent });
    // Until the response's head arrives; the body's stream then listens for itself.
    const onAbort = (): void => {
      answered = true;
      request.destroy();
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      if (answered) return;
      answered = true;
      reject(new TypeError('fetch failed', { cause: error }));
    });
    request.on('response', (incoming) => {
      signal?.removeEventListener('abort', onAbort);
      if (answered) {
        incoming.destroy();
        return;
      }
      answered = true;
      const status = incoming.statusCode ?? 0;
      const bodyless = NULL_BODY.has(status) || method === 'HEAD';
      if ((REDIRECT.has(status) && incoming.headers.location !== undefined) || bodyless) incoming.resume(); // its connection goes back to the pool
      if (REDIRECT.has(status) && incoming.headers.location !== undefined) return resolve(REDIRECTED);
      try {
        const response = new Response(bodyless ? null : bodyStream(incoming, signal), {
          status,
          statusText: incoming.statusMessage ?? '',
          headers: responseHeaders(incoming.rawHeaders),
        });
        Object.defineProperty(response, 'url', { value: url.href });
        resolve(response);
      } catch (error) {
        // A status the Response constructor refuses (outside 200–599).
        incoming.destroy();
        reject(new TypeError('fetch failed', { cause: error }));
      }
    });
    request.end(bytes);
  });
}

/** The request's headers as `node:http` takes them, with the defaults `fetch` sends. */
function requestHeaders(init: RequestInit['headers'], body: Uint8Array | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  // Through Headers, so every form of HeadersInit is read as fetch reads it (names lower-cased, repeats joined).
  new Headers(init).forEach((value, name) => {
    headers[name] = value;
  });
  headers['accept'] ??= '*/*';
  if (body !== undefined) headers['content-length'] = String(body.byteLength);
  return headers;
}

function responseHeaders(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index] as string, raw[index + 1] as string);
  return headers;
}

/** The decompressing stream for a `content-encoding` `fetch` decodes; undefined for none (or one it passes through). */
function decoderFor(encoding: string | undefined): Transform | undefined {
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    case 'zstd':
      return createZstdDecompress();
    default:
      return undefined;
  }
}

/**
 * The response's body as a web stream: read from the socket only as fast as
 * it is consumed; a reply cut off before its end errors it with
 * `TypeError('terminated')`, an abort with the signal's reason.
 */
function bodyStream(incoming: IncomingMessage, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
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
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        onAbort = () => {
          if (!finish()) return;
          controller.error(signal?.reason);
          incoming.destroy();
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        source.on('data', (chunk: Buffer) => {
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 1) <= 0) source.pause();
        });
        source.on('end', () => {
          if (finish()) controller.close();
        });
        const terminated = (cause: unknown): void => {
          if (finish()) controller.error(new TypeError('terminated', { cause }));
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
        incoming.destroy();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: BODY_HIGH_WATER_MARK }),
  );
}
