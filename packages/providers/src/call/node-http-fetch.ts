/**
 * The transport every provider uses unless it is given a `fetch`: the
 * `fetch` signature, served by `node:http` / `node:https` on kept-alive
 * connections. Through the OpenAI-compatible provider it costs the host's
 * main thread 20–28% less CPU a request than Node's own
 * `fetch` (undici), and holds half the heap while the request is in flight
 * (this package's request benchmark; at 10,000 sessions at once, 150 MiB of
 * the host's peak).
 *
 * It takes the requests an SDK makes — a string or URL, a string or byte
 * body — and hands anything else to `fallback` (Node's `fetch`), which then
 * behaves exactly as it always did:
 * - a `Request` object, or a body that is a stream, form or blob;
 * - a scheme other than `http:` or `https:`;
 * - a header `fetch` does not let a caller set (`host`, `connection`,
 *   `keep-alive`, `transfer-encoding`, `upgrade`);
 * - a process set to use proxies from the environment (`NODE_USE_ENV_PROXY`,
 *   `--use-env-proxy`, read when the transport is made), which only Node's
 *   `fetch` honours.
 *
 * What it keeps of `fetch`: the status, status text, headers (repeated ones
 * joined as `Headers` joins them) and a streamed body, decoded when the
 * server compressed it; redirects followed as `fetch` follows them (the
 * `redirect` option, at most 20, POST turned to GET by 301, 302 and 303,
 * credentials dropped when the origin changes), each request sent once; a
 * URL with credentials in it refused; a failure to connect or a cut-off
 * reply rejects (or errors the body) with `TypeError('fetch failed' /
 * 'terminated')` carrying the cause, as Node's `fetch` does; an abort
 * rejects with the signal's reason. TLS is Node's, with its certificate
 * checks and CAs (`NODE_EXTRA_CA_CERTS` included). An idle connection is
 * closed after 4 s, as undici's default, or after the server's Keep-Alive
 * hint less a second when that is shorter (Node's agent only shortens its
 * timeout; undici also follows a longer hint).
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable, Transform } from 'node:stream';
import { constants as zlib, createBrotliDecompress, createGunzip, createInflate, createZstdDecompress } from 'node:zlib';
import { ProviderError } from '../errors/provider-error.ts';

/** Statuses whose response has no body (the `Response` constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
/** Statuses `fetch` follows when they carry a `location`. */
const REDIRECT = new Set([301, 302, 303, 307, 308]);
/** The most redirects `fetch` follows before it fails. */
const MAX_REDIRECTS = 20;
/** Headers `fetch` does not let a caller set; a request carrying one is handed to the fallback. */
const FORBIDDEN_HEADERS = ['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade'] as const;
/** Headers that describe a request's body, dropped with it when a redirect turns the request into a GET. */
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'] as const;
/** Headers that must not follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'] as const;
/** How many bytes of a body the stream holds before it stops reading from the socket (backpressure). */
const BODY_HIGH_WATER_MARK = 64 * 1024;
/** How long an idle connection is kept when the server gives no Keep-Alive hint (undici's default). */
const DEFAULT_KEEP_ALIVE_MS = 4_000;
/** The longest timer Node keeps (2^31 − 1 ms). */
const MAX_TIMER_MS = 2_147_483_647;

type FetchInput = Parameters<typeof globalThis.fetch>[0];

/** Options of {@link createNodeHttpFetch}. */
export interface NodeHttpFetchOptions {
  /** What serves the requests this transport does not (default: Node's `fetch`, read at each call). */
  fallback?: typeof globalThis.fetch;
  /**
   * How long an idle connection is kept when the server's answer carries no
   * shorter Keep-Alive hint, in ms (default 4,000, as undici). It never cuts a
   * request that is waiting for its answer or reading its body. 0 keeps an
   * idle connection until the server closes it (its hint unread). A whole
   * number up to 2^31 − 1; anything else is `PROVIDER_CONFIG`.
   */
  keepAliveMs?: number;
}

/** One request as this transport sends it. */
interface Outgoing {
  readonly url: URL;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: Uint8Array | undefined;
}

/**
 * A `fetch` over `node:http` / `node:https` with its own kept-alive
 * connections (idle ones never keep the process alive). See the module's
 * comment for what it serves and what it hands to `fallback`.
 */
export function createNodeHttpFetch(options: NodeHttpFetchOptions = {}): typeof globalThis.fetch {
  // Every idle connection is kept, as undici keeps them (Node's agent keeps 256 by default): a host of 1,000 sessions
  // opened a new connection for a quarter of its requests with the default (1,788 connections for 6,900 requests),
  // and 1,000 without a cap. The agent's `timeout` closes idle ones (at a server's shorter hint, less a second); on a
  // request's socket it only raises an event nobody here listens to, so it cuts no request.
  const keepAliveMs = options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS;
  // Checked here: unchecked, -1 made every request fail with Node's ERR_OUT_OF_RANGE about "msecs", and NaN silently
  // meant no idle timer.
  if (!Number.isSafeInteger(keepAliveMs) || keepAliveMs < 0 || keepAliveMs > MAX_TIMER_MS) {
    throw new ProviderError({ code: 'PROVIDER_CONFIG', retryable: false, message: `keepAliveMs must be a whole number of milliseconds from 0 to ${MAX_TIMER_MS}, not ${String(keepAliveMs)}` });
  }
  const keep = { keepAlive: true, maxFreeSockets: Number.POSITIVE_INFINITY, timeout: keepAliveMs };
  const agents = { 'http:': new HttpAgent(keep), 'https:': new HttpsAgent(keep) };
  const fallback = (input: FetchInput, init?: RequestInit): Promise<Response> => (options.fallback ?? globalThis.fetch)(input, init);
  // Read once, as Node's fetch reads it once at start-up (and reading the environment on every call costs).
  const proxied = usesEnvironmentProxy();
  return (input, init) => {
    const url = typeof input === 'string' ? (URL.parse(input) ?? undefined) : input instanceof URL ? new URL(input.href) : undefined;
    const body = init?.body;
    if (url === undefined || !isHttp(url) || !isPlainBody(body) || proxied) return fallback(input, init);
    if (hasCredentials(url)) {
      // Never echo the URL: its password is the point.
      return Promise.reject(new TypeError('fetch cannot send a URL with credentials in it (user:password@); send them in a header'));
    }
    const bytes = body === undefined || body === null ? undefined : typeof body === 'string' ? Buffer.from(body) : body instanceof ArrayBuffer ? new Uint8Array(body) : body;
    let headers: Record<string, string>;
    try {
      headers = requestHeaders(init?.headers, bytes, typeof body === 'string');
    } catch (error) {
      return Promise.reject(error); // a header Headers refuses: rejected, as fetch rejects
    }
    if (FORBIDDEN_HEADERS.some((name) => name in headers)) return fallback(input, init);
    url.hash = ''; // never sent, and not part of a response's url
    const outgoing: Outgoing = { url, method: normalizeMethod(init?.method ?? 'GET'), headers, body: bytes };
    return follow(outgoing, init?.redirect ?? 'follow', init?.signal ?? undefined, (target) => agents[target.protocol as 'http:' | 'https:']);
  };
}

/** The transport providers use by default. */
export const nodeHttpFetch: typeof globalThis.fetch = createNodeHttpFetch();

type PlainBody = string | Uint8Array | ArrayBuffer | null | undefined;

function isPlainBody(body: unknown): body is PlainBody {
  return body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer;
}

function isHttp(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

/** True when `url` carries a user name or password, which `fetch` refuses to send. */
function hasCredentials(url: URL): boolean {
  return url.username !== '' || url.password !== '';
}

/** Upper-cases the methods `fetch` upper-cases; any other is sent as given. */
function normalizeMethod(method: string): string {
  const upper = method.toUpperCase();
  return ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT'].includes(upper) ? upper : method;
}

/** Node's `fetch` reads proxies from the environment when told to (read when the transport is made); then it alone serves requests. */
function usesEnvironmentProxy(): boolean {
  const flag = process.env['NODE_USE_ENV_PROXY'];
  if (flag !== undefined && flag !== '' && flag !== '0') return true;
  return process.execArgv.includes('--use-env-proxy') || (process.env['NODE_OPTIONS']?.includes('--use-env-proxy') ?? false);
}

/** A failure `fetch` reports as `TypeError('fetch failed')`, with what went wrong as the cause. */
function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause: typeof cause === 'string' ? new Error(cause) : cause });
}

/** Sends `first`, following redirects as `fetch` does (each request sent once), and answers with the last response. */
async function follow(first: Outgoing, redirect: NonNullable<RequestInit['redirect']>, signal: AbortSignal | undefined, agentFor: (url: URL) => HttpAgent): Promise<Response> {
  let outgoing = first;
  for (let redirects = 0; ; redirects += 1) {
    const incoming = await exchange(outgoing, agentFor(outgoing.url), signal);
    if (signal?.aborted) {
      incoming.destroy();
      throw signal.reason;
    }
    const status = incoming.statusCode ?? 0;
    const location = incoming.headers.location;
    if (!REDIRECT.has(status) || location === undefined || redirect === 'manual') return toResponse(incoming, outgoing, signal, redirects > 0);
    incoming.resume(); // read to its end, so its connection goes back to the pool
    if (redirect === 'error') throw fetchFailed(`the server redirected (${status}) and the request's redirect mode is 'error'`);
    if (redirects >= MAX_REDIRECTS) throw fetchFailed(`more than ${MAX_REDIRECTS} redirects`);
    outgoing = redirected(outgoing, status, location);
  }
}

/** The request a redirect asks for, by `fetch`'s rules. */
function redirected(from: Outgoing, status: number, location: string): Outgoing {
  const url = URL.parse(location, from.url.href);
  if (url === null) throw fetchFailed(`the redirect's location is not a URL: ${JSON.stringify(location)}`);
  if (!isHttp(url)) throw fetchFailed(`a redirect to ${url.protocol} is not followed`);
  if (hasCredentials(url)) throw fetchFailed('a redirect to a URL with credentials in it is not followed');
  url.hash = '';
  const headers = { ...from.headers };
  let { method, body } = from;
  if (((status === 301 || status === 302) && method === 'POST') || (status === 303 && method !== 'GET' && method !== 'HEAD')) {
    method = 'GET';
    body = undefined;
    for (const name of BODY_HEADERS) delete headers[name];
  }
  if (url.origin !== from.url.origin) for (const name of CREDENTIAL_HEADERS) delete headers[name];
  return { url, method, headers, body };
}

/** Sends one request; resolves when the response's head has arrived. */
function exchange(outgoing: Outgoing, agent: HttpAgent, signal: AbortSignal | undefined): Promise<IncomingMessage> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    let answered = false;
    const send = outgoing.url.protocol === 'https:' ? httpsRequest : httpRequest;
    const request = send(outgoing.url, { method: outgoing.method, headers: outgoing.headers, agent });
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
      reject(fetchFailed(error));
    });
    request.on('response', (incoming) => {
      signal?.removeEventListener('abort', onAbort);
      if (answered) {
        incoming.destroy();
        return;
      }
      answered = true;
      resolve(incoming);
    });
    request.end(outgoing.body);
  });
}

/** The `Response` over a response's head and its streamed body. */
function toResponse(incoming: IncomingMessage, outgoing: Outgoing, signal: AbortSignal | undefined, wasRedirected: boolean): Response {
  const status = incoming.statusCode ?? 0;
  const bodyless = NULL_BODY.has(status) || outgoing.method === 'HEAD';
  let response: Response;
  try {
    response = new Response(bodyless ? null : bodyStream(incoming, signal), {
      status,
      statusText: incoming.statusMessage ?? '',
      headers: responseHeaders(incoming.rawHeaders),
    });
  } catch (error) {
    // A status the Response constructor refuses (outside 200–599).
    incoming.destroy();
    throw fetchFailed(error);
  }
  if (bodyless) incoming.resume(); // its connection goes back to the pool
  return withOrigin(response, outgoing.url.href, wasRedirected);
}

/**
 * Gives a `Response` made here what `fetch` gives its own: the URL it came
 * from, whether a redirect led there, the `basic` type; and its clones the same.
 */
function withOrigin(response: Response, url: string, wasRedirected: boolean): Response {
  const clone = response.clone.bind(response);
  Object.defineProperties(response, {
    url: { value: url },
    redirected: { value: wasRedirected },
    type: { value: 'basic' },
    clone: { value: () => withOrigin(clone(), url, wasRedirected) },
  });
  return response;
}

/** The request's headers as `node:http` takes them, with the defaults `fetch` sends (a string body is `text/plain`). */
function requestHeaders(init: RequestInit['headers'], body: Uint8Array | undefined, bodyIsText: boolean): Record<string, string> {
  const headers: Record<string, string> = {};
  // Through Headers, so every form of HeadersInit is read as fetch reads it (names lower-cased, repeats joined).
  new Headers(init).forEach((value, name) => {
    headers[name] = value;
  });
  headers['accept'] ??= '*/*';
  if (bodyIsText) headers['content-type'] ??= 'text/plain;charset=UTF-8';
  if (body !== undefined) headers['content-length'] = String(body.byteLength);
  return headers;
}

function responseHeaders(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index] as string, raw[index + 1] as string);
  return headers;
}

/**
 * The decompressing stream for a `content-encoding` `fetch` decodes; undefined for none (or one it passes through).
 * Flushed as undici flushes, so a body cut before its trailer still yields what arrived.
 */
function decoderFor(encoding: string | undefined): Transform | undefined {
  const sync = { flush: zlib.Z_SYNC_FLUSH, finishFlush: zlib.Z_SYNC_FLUSH };
  switch (encoding?.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip(sync);
    case 'deflate':
      return createInflate(sync);
    case 'br':
      return createBrotliDecompress({ flush: zlib.BROTLI_OPERATION_FLUSH, finishFlush: zlib.BROTLI_OPERATION_FLUSH });
    case 'zstd':
      return createZstdDecompress();
    default:
      return undefined;
  }
}

/**
 * The response's body as a web stream: read from the socket only as fast as
 * it is consumed; a reply cut off before its end errors it with
 * `TypeError('terminated')`, an abort with the signal's reason. Once it has
 * ended, however it ended, nothing more is read or handed on, and the
 * connection of a body not read to its end is closed.
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
        source.on('data', (chunk: Buffer) => {
          if (finished) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
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
