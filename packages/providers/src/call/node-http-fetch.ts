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
 * credentials dropped when the origin changes, the API-key headers providers
 * send keys in too, which `fetch` forwards), each request sent once; a
 * URL with credentials in it refused; a failure to connect or a cut-off
 * reply rejects (or errors the body) with `TypeError('fetch failed' /
 * 'terminated')` carrying the cause, as Node's `fetch` does; an abort
 * rejects with the signal's reason. TLS is Node's, with its certificate
 * checks and CAs (`NODE_EXTRA_CA_CERTS` included). An idle connection is
 * closed after 4 s, as undici's default, or after the server's Keep-Alive
 * hint less a second when that is shorter (Node's agent only shortens its
 * timeout; undici also follows a longer hint).
 *
 * This file decides what the transport serves and builds the request; one
 * request on the wire and its redirects are `node-http-exchange.ts`, the
 * response's body stream `node-http-body.ts`.
 */
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { ProviderError } from '../errors/provider-error.ts';
import { follow, hasCredentials, isHttp, type Outgoing } from './node-http-exchange.ts';
import { LONGEST_TIMER_MS } from './longest-timer.ts';

/** Headers `fetch` does not let a caller set; a request carrying one is handed to the fallback. */
const FORBIDDEN_HEADERS = ['host', 'connection', 'keep-alive', 'transfer-encoding', 'upgrade'] as const;
/** How long an idle connection is kept when the server gives no Keep-Alive hint (undici's default). */
const DEFAULT_KEEP_ALIVE_MS = 4_000;

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
  if (!Number.isSafeInteger(keepAliveMs) || keepAliveMs < 0 || keepAliveMs > LONGEST_TIMER_MS) {
    throw new ProviderError({ code: 'PROVIDER_CONFIG', retryable: false, message: `keepAliveMs must be a whole number of milliseconds from 0 to ${LONGEST_TIMER_MS}, not ${String(keepAliveMs)}` });
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
    // A string is sent as it is, not copied into a Buffer: the caller (the SDK) holds it until the answer anyway, and
    // a copy held here for a redirect cost each request in flight its body's size again, outside the heap.
    const payload = body === undefined || body === null ? undefined : body instanceof ArrayBuffer ? new Uint8Array(body) : body;
    let headers: Record<string, string>;
    try {
      headers = requestHeaders(init?.headers, payload);
    } catch (error) {
      return Promise.reject(error); // a header Headers refuses: rejected, as fetch rejects
    }
    if (FORBIDDEN_HEADERS.some((name) => name in headers)) return fallback(input, init);
    url.hash = ''; // never sent, and not part of a response's url
    const outgoing: Outgoing = { url, method: normalizeMethod(init?.method ?? 'GET'), headers, body: payload };
    return follow(outgoing, init?.redirect ?? 'follow', init?.signal ?? undefined, (target) => agents[target.protocol as 'http:' | 'https:']);
  };
}

/** The transport providers use by default. */
export const nodeHttpFetch: typeof globalThis.fetch = createNodeHttpFetch();

type PlainBody = string | Uint8Array | ArrayBuffer | null | undefined;

function isPlainBody(body: unknown): body is PlainBody {
  return body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array || body instanceof ArrayBuffer;
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

/** The request's headers as `node:http` takes them, with the defaults `fetch` sends (a string body is `text/plain`). */
function requestHeaders(init: RequestInit['headers'], body: string | Uint8Array | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  // Through Headers, so every form of HeadersInit is read as fetch reads it (names lower-cased, repeats joined).
  new Headers(init).forEach((value, name) => {
    headers[name] = value;
  });
  headers['accept'] ??= '*/*';
  if (typeof body === 'string') headers['content-type'] ??= 'text/plain;charset=UTF-8';
  // Bytes, not characters: a string goes out as UTF-8 (a lone surrogate as U+FFFD, three bytes, as fetch sends it).
  if (body !== undefined) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  return headers;
}
