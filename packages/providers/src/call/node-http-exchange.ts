/**
 * One request of `nodeHttpFetch` (`node-http-fetch.ts`) on the wire: sent
 * once over a kept-alive connection, its redirects followed as `fetch`
 * follows them, and its answer made the `Response` `fetch` would make (its
 * `url`, `redirected` and `type` included); the body streams through
 * `node-http-body.ts`.
 */
import type { Agent as HttpAgent, IncomingMessage } from 'node:http';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { bodyStream } from './node-http-body.ts';

/** Statuses whose response has no body (the `Response` constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);
/** Statuses `fetch` follows when they carry a `location`. */
const REDIRECT = new Set([301, 302, 303, 307, 308]);
/** The most redirects `fetch` follows before it fails. */
const MAX_REDIRECTS = 20;
/**
 * The most of an error response's body read (64 KiB): an SDK reads it whole into its error's message, and a proxy's
 * page or a misbehaving server can send megabytes. An API's error is a few hundred bytes of JSON.
 */
const ERROR_BODY_LIMIT = 64 * 1024;
/** Headers that describe a request's body, dropped with it when a redirect turns the request into a GET. */
const BODY_HEADERS = ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location'] as const;
/**
 * Headers that must not follow a redirect to another origin: those `fetch` drops, and the API-key headers providers
 * send their keys in (`x-goog-api-key` for Gemini, `x-api-key` for Anthropic, `api-key` for Azure OpenAI), which
 * `fetch` would hand to whatever host the redirect names.
 */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization', 'x-api-key', 'x-goog-api-key', 'api-key'] as const;

/** One request as this transport sends it. */
export interface Outgoing {
  readonly url: URL;
  readonly method: string;
  readonly headers: Record<string, string>;
  /** A string is written as UTF-8 (`content-length` is its byte length), at each redirect that keeps the body. */
  readonly body: string | Uint8Array | undefined;
}

/** True for the schemes this transport sends itself. */
export function isHttp(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

/** True when `url` carries a user name or password, which `fetch` refuses to send. */
export function hasCredentials(url: URL): boolean {
  return url.username !== '' || url.password !== '';
}

/** A failure `fetch` reports as `TypeError('fetch failed')`, with what went wrong as the cause. */
function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause: typeof cause === 'string' ? new Error(cause) : cause });
}

/** Sends `first`, following redirects as `fetch` does (each request sent once), and answers with the last response. */
export async function follow(first: Outgoing, redirect: NonNullable<RequestInit['redirect']>, signal: AbortSignal | undefined, agentFor: (url: URL) => HttpAgent): Promise<Response> {
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
    // A string as 'utf-8', not 'utf8' or none: for those node:http prepends its head to the body (`head + body`) and
    // writes that copy, leaving the head as the unflattened concatenation it was built as (some 50 pieces, 1.2 KiB
    // more heap per request in flight). Written apart, the head is flattened as it is written, as with a Buffer body.
    if (typeof outgoing.body === 'string') request.end(outgoing.body, 'utf-8');
    else request.end(outgoing.body);
  });
}

/** The `Response` over a response's head and its streamed body. */
function toResponse(incoming: IncomingMessage, outgoing: Outgoing, signal: AbortSignal | undefined, wasRedirected: boolean): Response {
  const status = incoming.statusCode ?? 0;
  const bodyless = NULL_BODY.has(status) || outgoing.method === 'HEAD';
  let response: Response;
  try {
    response = new Response(bodyless ? null : bodyStream(incoming, signal, status >= 400 ? ERROR_BODY_LIMIT : undefined), {
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

function responseHeaders(raw: readonly string[]): Headers {
  const headers = new Headers();
  for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index] as string, raw[index + 1] as string);
  return headers;
}
