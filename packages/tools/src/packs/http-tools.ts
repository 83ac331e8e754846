/**
 * `tool.http.Fetch`: HTTP requests to granted hosts only, off unless granted.
 * The host of every request — and of every redirect hop — must be covered by
 * a `net` grant (`net:read:api.example.com`, `net:read:*.example.com`;
 * methods other than GET/HEAD need `net:write`), and the address each
 * connection goes to is checked (`http-address-guard.ts`): a loopback,
 * private, link-local or other special-use address only when a grant names
 * the host. The body is read up to `maxBytes` and the whole exchange is
 * bounded by `timeoutMs`.
 */
import type { IncomingMessage } from 'node:http';
import { checkPackOptions, count, other } from './pack-options.ts';
import { ToolError, isToolError } from '../errors/tool-error.ts';
import type { Capability } from '../policy/capability.ts';
import { defineToolPack, type ToolPack } from '../registry/tool-pack.ts';
import { defineTool } from '../spec/define-tool.ts';
import type { ToolContext } from '../spec/tool-context.ts';
import { describeValue } from '../spec/coerce-argument.ts';
import { isToolMap, type ToolValue } from '../spec/tool-value.ts';
import { addressGuard, systemResolver, type HostResolver, type SpecialAddressRule } from './http-address-guard.ts';
import { readResponseBody } from './http-body.ts';
import { createHttpAgents, sendHttpRequest, type HttpAgents } from './http-exchange.ts';

/** Options of {@link createHttpTools}. */
export interface HttpToolsOptions {
  /** Largest response body, in bytes. Default 1 MiB. */
  readonly maxBytes?: number;
  /** Time for the whole request including redirects, in ms. Default 10000. */
  readonly timeoutMs?: number;
  /** Redirects followed (each re-checked against the grants). Default 5. */
  readonly maxRedirects?: number;
  /**
   * Resolves host names: `(hostname) => Promise<{ address }[]>`. Default the
   * system's (`dns.lookup`). Every address it gives is checked before a
   * connection is made to it; tests inject one to give names fixed addresses.
   */
  readonly lookup?: HostResolver;
  /**
   * Who reaches a loopback, private, link-local or other special-use address:
   * `'named'` (the default), only a grant naming the host without a wildcard
   * (`net:read:localhost:8080`, `net:read:10.0.0.5`); `'granted'`, any grant
   * covering the host, patterns included — for a pack meant for a private
   * network, where `net:read:*.corp.internal` should reach its 10.x hosts.
   */
  readonly specialAddresses?: SpecialAddressRule;
}

/** The settings a pack runs with. */
interface HttpSettings {
  readonly maxBytes: number;
  readonly timeoutMs: number;
  readonly maxRedirects: number;
  readonly lookup: HostResolver;
  readonly specialAddresses: SpecialAddressRule;
  readonly agents: HttpAgents;
}

const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD']);

/** Parses an absolute http(s) URL or throws `HTTP_URL_INVALID`. */
export function parseHttpUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ToolError('HTTP_URL_INVALID', `'${text}' is not an absolute URL`, { argument: 'url' });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ToolError('HTTP_URL_INVALID', `only http and https URLs are fetched, not ${url.protocol}`, { argument: 'url' });
  if (url.username !== '' || url.password !== '') throw new ToolError('HTTP_URL_INVALID', 'URLs with credentials are not fetched', { argument: 'url' });
  return url;
}

/**
 * The capability one request needs: `net:read:host:port` (or `net:write:` for
 * unsafe methods). The port is the effective one — the URL parser drops a
 * default port (`http://h:80/` has `port === ''`), so it is put back (80 for
 * http, 443 for https) and a grant `net:read:h:80` matches `http://h/`.
 */
export function httpNeed(url: URL, method: string): Capability {
  const verb = SAFE_METHODS.has(method) ? 'read' : 'write';
  const port = url.port === '' ? (url.protocol === 'https:' ? '443' : '80') : url.port;
  return { resource: 'net', verbs: [verb], scopes: [`${url.hostname}:${port}`] };
}

/** Headers a fetch must not carry to another origin (as WHATWG fetch drops them on a cross-origin redirect). */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['authorization', 'cookie', 'proxy-authorization']);

/** `headers` without credential headers (names compared case-insensitively). */
export function withoutCredentials(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase())));
}

/**
 * Headers the tool sets itself (from the URL, the body and its one connection a request), which a program may not;
 * `trailer` announces trailers, which a counted body cannot carry (Node refuses to send it).
 */
const TRANSPORT_HEADERS: ReadonlySet<string> = new Set(['connection', 'content-length', 'expect', 'host', 'keep-alive', 'trailer', 'transfer-encoding', 'upgrade']);

const OPTION_KEYS: readonly string[] = ['method', 'headers', 'body'];

/** `TOOL_ARGUMENT_INVALID` about `options`, saying what it takes. */
function invalidOptions(message: string): ToolError {
  return new ToolError('TOOL_ARGUMENT_INVALID', `options ${message}; options is {"method": "GET", "headers": {"Name": "value"}, "body": "text"}, every key optional`, { argument: 'options' });
}

/**
 * The request `options` ask for. Every key and value is checked: an option
 * that was silently ignored (`{"method": 5}`, `{"Method": "POST"}`, a misspelt
 * key) would send a different request than the program meant.
 */
function requestOptions(value: ToolValue): { method: string; headers: Record<string, string>; body: string | undefined } {
  const options = isToolMap(value) ? value : {};
  for (const key of Object.keys(options)) {
    if (OPTION_KEYS.includes(key)) continue;
    const meant = OPTION_KEYS.find((known) => known === key.toLowerCase());
    throw invalidOptions(`has the unknown key '${key}'${meant === undefined ? '' : ` (keys are lower case: '${meant}')`}`);
  }
  const given = (key: string): ToolValue | undefined => (options[key] === null ? undefined : options[key]);
  const rawMethod = given('method') ?? 'GET';
  if (typeof rawMethod !== 'string') throw invalidOptions(`key 'method' must be a string such as "GET" or "POST", got ${describeValue(rawMethod)}`);
  const method = rawMethod.toUpperCase();
  if (!/^[A-Z]+$/.test(method)) throw invalidOptions(`key 'method' is '${rawMethod}', which is not an HTTP method`);
  const headers: Record<string, string> = {};
  const rawHeaders = given('headers') ?? {};
  if (!isToolMap(rawHeaders)) throw invalidOptions(`key 'headers' must be a map of header names to strings, got ${describeValue(rawHeaders)}`);
  for (const [name, header] of Object.entries(rawHeaders)) {
    if (typeof header !== 'string' && typeof header !== 'number' && typeof header !== 'boolean') throw invalidOptions(`header '${name}' must be a string, got ${describeValue(header)}`);
    if (TRANSPORT_HEADERS.has(name.toLowerCase())) throw invalidOptions(`header '${name}' is set by the tool itself (from the URL and the body); leave it out`);
    headers[name] = String(header);
  }
  const body = given('body');
  if (body !== undefined && typeof body !== 'string') throw invalidOptions(`key 'body' must be a string (turn data into text with tool.json.Stringify), got ${describeValue(body)}`);
  return { method, headers, body };
}

/** The URL a redirect's `Location` points to, or `HTTP_URL_INVALID` naming the redirect. */
function redirectTarget(location: string, from: URL, status: number): URL {
  let target: string;
  try {
    target = new URL(location, from).href;
  } catch {
    throw new ToolError('HTTP_URL_INVALID', `${from.href} redirected (status ${status}) to Location '${location}', which is not a valid URL; the redirect cannot be followed`);
  }
  try {
    return parseHttpUrl(target);
  } catch (error) {
    if (!isToolError(error)) throw error;
    throw new ToolError('HTTP_URL_INVALID', `${from.href} redirected (status ${status}) to '${target}', which is not followed: ${error.message}`);
  }
}

/** The failure of a request that did not complete; an abort is left to the caller, which names the time limit. */
function requestFailed(error: unknown, url: URL, signal: AbortSignal, what: string): unknown {
  if (isToolError(error) || signal.aborted) return error;
  return new ToolError('HTTP_FAILED', `${what} ${url.href} failed: ${(error as Error).message}`, { cause: error });
}

/**
 * The response's headers as one map, every repeated header's values joined
 * with `, ` (as `Headers.get` joins them). From `headersDistinct`: `headers`
 * keeps only the first of a repeated `content-type`, `location` and others.
 */
function headerMap(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, values] of Object.entries(response.headersDistinct)) if (values !== undefined) headers[name] = values.join(', ');
  return headers;
}

async function fetchFollowing(url: URL, args: ReturnType<typeof requestOptions>, context: ToolContext, settings: HttpSettings, signal: AbortSignal): Promise<ToolValue> {
  let current = url;
  let { method, body, headers: requestHeaders } = args;
  for (let hop = 0; ; hop += 1) {
    // The first hop's need was authorized by the tool's scopes, every later one below, before it is sent.
    const guard = addressGuard(current, httpNeed(current, method), context.policy.grants, settings.specialAddresses, settings.lookup);
    let response: IncomingMessage;
    try {
      response = await sendHttpRequest({ url: current, method, headers: requestHeaders, body: SAFE_METHODS.has(method) ? undefined : body, signal }, guard, settings.agents);
    } catch (error) {
      if (!isToolError(error) && signal.aborted) throw new ToolError('TOOL_TIMEOUT', `request to ${current.host} did not finish within ${settings.timeoutMs} ms`, { cause: error });
      throw requestFailed(error, current, signal, 'request to');
    }
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location !== undefined) {
      response.destroy();
      if (hop >= settings.maxRedirects) {
        throw new ToolError('HTTP_TOO_MANY_REDIRECTS', `request to ${url.host} was redirected ${hop} times and ${current.host} redirects again; the limit is ${settings.maxRedirects}`);
      }
      const next = redirectTarget(location, current, status);
      // Credentials meant for one origin must not reach another (WHATWG fetch does the same); once dropped they stay dropped.
      if (next.origin !== current.origin) requestHeaders = withoutCredentials(requestHeaders);
      current = next;
      // As fetch: a 303 turns any method but GET and HEAD into a GET (a HEAD stays a HEAD and reads no body), a 301/302 only a POST.
      if ((status === 303 && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
      }
      context.authorize(httpNeed(current, method));
      continue;
    }
    let text = '';
    try {
      if (method === 'HEAD') response.destroy();
      else text = await readResponseBody(response, settings.maxBytes);
    } catch (error) {
      throw requestFailed(error, current, signal, 'reading the response of');
    }
    return { status, ok: status >= 200 && status < 300, url: current.href, headers: headerMap(response), body: text };
  }
}

/** Creates the `http` pack. */
export function createHttpTools(options: HttpToolsOptions = {}): ToolPack {
  if (typeof options === 'object' && options !== null && 'fetch' in options) {
    throw new ToolError('TOOL_SPEC_INVALID', "createHttpTools(): fetch is no longer an option: the pack makes its own connections so that it can check the address each one goes to; to give test host names fixed addresses, pass lookup: (hostname) => Promise<{ address }[]>");
  }
  checkPackOptions('createHttpTools', options, { maxBytes: count(1), timeoutMs: count(1), maxRedirects: count(), lookup: other, specialAddresses: other });
  if (options.lookup !== undefined && typeof options.lookup !== 'function') throw new ToolError('TOOL_SPEC_INVALID', `createHttpTools(): lookup must be a function (hostname) => Promise<{ address }[]>, got ${typeof options.lookup}`);
  if (options.specialAddresses !== undefined && options.specialAddresses !== 'named' && options.specialAddresses !== 'granted') {
    throw new ToolError('TOOL_SPEC_INVALID', `createHttpTools(): specialAddresses must be 'named' (the default: only a grant naming the host reaches a loopback, private or other special-use address) or 'granted' (any grant covering the host does), got ${JSON.stringify(options.specialAddresses) ?? String(options.specialAddresses)}`);
  }
  const settings: HttpSettings = {
    maxBytes: options.maxBytes ?? 1024 * 1024,
    timeoutMs: options.timeoutMs ?? 10_000,
    maxRedirects: options.maxRedirects ?? 5,
    lookup: options.lookup ?? systemResolver,
    specialAddresses: options.specialAddresses ?? 'named',
    agents: createHttpAgents(),
  };
  return defineToolPack('http', [
    defineTool(
      {
        name: 'tool.http.Fetch',
        description: 'Fetches a URL from a granted host: {"status", "ok", "url", "headers", "body"}.',
        args: [
          { name: 'url', type: 'string', description: 'Absolute http(s) URL.' },
          { name: 'options', type: 'map', required: false, description: '{"method", "headers", "body"}; default GET.' },
        ],
        returns: 'map',
        capabilities: ['net:read'],
        scopes: (args) => [httpNeed(parseHttpUrl(String(args.url)), requestOptions(args.options ?? null).method)],
        effect: 'external',
        idempotent: false,
        // The tool's own deadline fires first and names the host; this is the host's backstop.
        timeoutMs: settings.timeoutMs + 1000,
      },
      async (args, context) => {
        const url = parseHttpUrl(args.url as string);
        const request = requestOptions(args.options ?? null);
        const signal = AbortSignal.any([context.signal, AbortSignal.timeout(settings.timeoutMs)]);
        try {
          return await fetchFollowing(url, request, context, settings, signal);
        } catch (error) {
          if (!isToolError(error) && signal.aborted) throw new ToolError('TOOL_TIMEOUT', `request did not finish within ${settings.timeoutMs} ms`, { cause: error });
          throw error;
        }
      },
    ),
  ]);
}
