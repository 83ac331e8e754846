/**
 * One request of the http pack on the wire, over `node:http` / `node:https`,
 * its connection going only where the address guard lets it
 * (`http-address-guard.ts`): the socket's `lookup` is the guarded one, and an
 * IP literal is checked before the request is made.
 *
 * - No proxy: the pack's agents are made without `proxyEnv`, so
 *   `NODE_USE_ENV_PROXY` with `HTTP_PROXY` / `HTTPS_PROXY` (which Node's
 *   `fetch` honours) never hands a request to a proxy, which would resolve
 *   the name itself, past the check.
 * - No connection is kept for another request: a kept-alive socket opened
 *   under one call's grants could carry a call whose grants refuse its address.
 * - Redirects are the caller's (each hop a request of its own, checked again).
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { bareHostname, guardedLookup, type AddressGuard } from './http-address-guard.ts';

/** The agents of one http pack: no proxy, no connection kept alive. */
export interface HttpAgents {
  readonly 'http:': HttpAgent;
  readonly 'https:': HttpsAgent;
}

/** Makes {@link HttpAgents}. */
export function createHttpAgents(): HttpAgents {
  return { 'http:': new HttpAgent({ keepAlive: false }), 'https:': new HttpsAgent({ keepAlive: false }) };
}

/** What one request sends. */
export interface OutgoingRequest {
  readonly url: URL;
  readonly method: string;
  /** The program's headers; `accept` and `user-agent` default to what Node's `fetch` sent (`*\/*`, `node`). */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  readonly signal: AbortSignal;
}

function headersFor(request: OutgoingRequest): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  const given = new Set(Object.keys(request.headers).map((name) => name.toLowerCase()));
  if (!given.has('accept')) headers['accept'] = '*/*';
  if (!given.has('user-agent')) headers['user-agent'] = 'node';
  if (request.body !== undefined && !given.has('content-type')) headers['content-type'] = 'text/plain;charset=UTF-8';
  Object.assign(headers, request.headers);
  // Counted here (in bytes), never chunked: a body-less POST is `content-length: 0`, as fetch sends it.
  if (request.method !== 'GET' && request.method !== 'HEAD') headers['content-length'] = Buffer.byteLength(request.body ?? '');
  return headers;
}

/**
 * Sends `request` and resolves with the response once its head arrives (the
 * body is left to the caller). Rejects with the guard's `HTTP_ADDRESS_DENIED`
 * before anything is sent when the address is refused, and with Node's error
 * when the request fails (the signal's abort included).
 */
export async function sendHttpRequest(request: OutgoingRequest, guard: AddressGuard, agents: HttpAgents): Promise<IncomingMessage> {
  const hostname = bareHostname(request.url);
  // A socket connects to an IP literal without a lookup: the literal is checked here, before the request exists.
  if (isIP(hostname) !== 0) guard.check(hostname);
  const https = request.url.protocol === 'https:';
  const send = https ? httpsRequest : httpRequest;
  return await new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = send(
      {
        hostname,
        port: request.url.port === '' ? undefined : Number(request.url.port),
        path: `${request.url.pathname}${request.url.search}`,
        method: request.method,
        headers: headersFor(request),
        agent: https ? agents['https:'] : agents['http:'],
        lookup: guardedLookup(guard),
        signal: request.signal,
      },
      resolve,
    );
    outgoing.on('error', reject);
    outgoing.end(request.method === 'GET' || request.method === 'HEAD' ? undefined : request.body);
  });
}
