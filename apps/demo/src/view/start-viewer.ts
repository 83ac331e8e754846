/**
 * The viewer's HTTP server: one page and a read-only JSON API over a
 * TranscriptStore, on 127.0.0.1 only.
 *
 * - `GET /` — the page.
 * - `GET /api/sessions?q=&status=&offset=` — one page of the list, newest
 *   first: `{sessions: SessionSummary[], offset, pageSize, next}` (`next`:
 *   the offset of the next page, null on the last); `q` searches ids,
 *   agents and tasks.
 * - `GET /api/sessions/:sid?before=N` — `{session, turns, page}`: the latest
 *   turns (or those before turn N), a page of them (turn-page.ts), each cut to
 *   its limits (bound-turn.ts); `page` says which and how many come before.
 *   `:sid` may be the start of exactly one id (4 characters or more), as on
 *   the command line.
 * - `GET /api/sessions/:sid/turns/:n` — `{turn}`: one turn whole, uncut.
 * - `GET /api/sessions/:sid/live` — Server-Sent Events: one `snapshot`
 *   (`{session, turns, page}`, the latest page, so a page draws a long session once), then
 *   `session` and `turn` (cut as a page's) whenever one is saved again, then `end` once the
 *   session is done (a halted one is still followed: a resume may continue it).
 *
 * Security: bound to the loopback address; the Host header must name it
 * (DNS rebinding); a request a browser says another site's page made is
 * refused (cross-site.ts); no CORS headers (other sites cannot read the API); GET
 * and HEAD only; a strict Content-Security-Policy; every string passes the
 * secret redactor.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { listTurnRange, sessionIdProblem, type TranscriptStore, type TurnRecord } from '@askloop/controller';
import { damagedStoreMessage, isDamagedStore } from '../loop/damaged-store.ts';
import { isAllowedHost } from './host-allowed.ts';
import { isCrossSiteRequest } from './cross-site.ts';
import { ambiguousPrefixMessage, matchSessionId, MIN_SID_PREFIX } from './match-session-id.ts';
import { createSecretRedactor, type SecretNames } from '../redact-secrets.ts';
import { listSessionPage, parseSessionListQuery } from './session-list-page.ts';
import { viewerPage } from './viewer-page.ts';
import { servedSession } from './orphaned-session.ts';
import { watchSession } from './watch-session.ts';
import { boundTurn } from './bound-turn.ts';
import { pageOfTurns, parseTurnIndex, readTurnPage } from './turn-page.ts';

/** Options of {@link startViewer}. */
export interface ViewerOptions {
  /** Where the sessions are read from. The viewer never writes to it and does not close it. */
  readonly store: TranscriptStore;
  /** The TCP port on 127.0.0.1; 0 (default) picks a free one. */
  readonly port?: number;
  /** How often the live feed polls the store, in milliseconds (default 500). */
  readonly pollMs?: number;
  /** The environment whose key-like values are redacted from every response (default: none beyond the key shapes). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * Variables of `env` that hold secrets whatever their names: what the config in use hands to an MCP server (`${NAME}`
   * in its `env` or `headers`) or names in a plugin's options (`tokenEnv:`); as a function, read at each answer.
   */
  readonly secretNames?: SecretNames;
  /** How many sessions one page of `/api/sessions` holds (default 500; a positive safe integer). */
  readonly listLimit?: number;
  /** How many live feeds may be open at once (default {@link MAX_LIVE_FEEDS}; a positive safe integer); one more is refused with VIEW_TOO_MANY_FEEDS. */
  readonly maxLiveFeeds?: number;
  /** What `askloop resume SID` needs to find the store (` --db FILE`), for the command a session no host runs is shown with. */
  readonly resumeArgs?: string;
  /** What gave the sessions file (`--db`, the default, or the config's `store.path`), for the fix a damaged file's error names. */
  readonly storeName?: string;
}

/** A running viewer. */
export interface Viewer {
  /** `http://127.0.0.1:PORT/`. */
  readonly url: string;
  readonly port: number;
  /** How many live feeds are open (each polls the store until its page goes away or the session ends). */
  liveFeeds(): number;
  /** Ends every live feed and stops the server. */
  close(): Promise<void>;
}

/** Codes of the API's JSON errors (`{error: {code, message}}`), listed in the README. */
export type ViewerErrorCode = 'VIEW_HOST_REFUSED' | 'VIEW_CROSS_SITE_REFUSED' | 'VIEW_METHOD_NOT_ALLOWED' | 'VIEW_NOT_FOUND' | 'VIEW_SESSION_NOT_FOUND' | 'VIEW_SESSION_AMBIGUOUS' | 'VIEW_TURN_NOT_FOUND' | 'VIEW_BAD_REQUEST' | 'VIEW_TOO_MANY_FEEDS' | 'VIEW_STORE_ERROR';

/**
 * How many live feeds are served at once by default. Each polls the store on
 * its own and reads a session's turns whenever its row changes: a hundred
 * feeds on one running session stalled the server for seconds at a time and
 * held gigabytes. A browser opens at most 6 connections to one address, and
 * a hidden tab holds none, so a person never comes near it.
 */
export const MAX_LIVE_FEEDS = 32;

/** JSON answers of at least this many bytes go gzipped to a client that accepts it; smaller ones are not worth the work. */
const GZIP_FROM_BYTES = 8 * 1024;

/** Whether the request's `accept-encoding` allows gzip (named, or `*`, and not with `q=0`). */
function acceptsGzip(request: IncomingMessage): boolean {
  return String(request.headers['accept-encoding'] ?? '')
    .toLowerCase()
    .split(',')
    .some((entry) => {
      const [name, ...parameters] = entry.split(';').map((part) => part.trim());
      const quality = parameters.find((parameter) => parameter.startsWith('q='));
      return (name === 'gzip' || name === '*') && (quality === undefined || Number(quality.slice(2)) > 0);
    });
}

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
} as const;

/** Starts the viewer; resolves once it listens. */
export async function startViewer(options: ViewerOptions): Promise<Viewer> {
  const { store } = options;
  const pollMs = options.pollMs ?? 500;
  const listLimit = options.listLimit ?? 500;
  // It becomes the store's `limit` (with the offset): a fraction or NaN would be refused there, or list everything.
  if (!Number.isSafeInteger(listLimit) || listLimit < 1) throw new RangeError(`listLimit must be a positive safe integer, not ${listLimit}`);
  const maxLiveFeeds = options.maxLiveFeeds ?? MAX_LIVE_FEEDS;
  if (!Number.isSafeInteger(maxLiveFeeds) || maxLiveFeeds < 1) throw new RangeError(`maxLiveFeeds must be a positive safe integer, not ${maxLiveFeeds}`);
  const redact = createSecretRedactor(options.env ?? {}, options.secretNames);
  const page = viewerPage();
  const feeds = new Set<AbortController>();
  let port = 0;

  /** `gzip`: the client accepts it. A long session's turns each repeat its system text, so its JSON shrinks several times over (view-api.test.ts measures more than 5× for 60 turns). */
  const sendJson = (response: ServerResponse, status: number, body: unknown, head: boolean, gzip = false) => {
    const bytes = Buffer.from(JSON.stringify(redact(body)));
    const packed = gzip && bytes.length >= GZIP_FROM_BYTES ? gzipSync(bytes) : undefined;
    response.writeHead(status, {
      ...SECURITY_HEADERS,
      'content-type': 'application/json; charset=utf-8',
      'content-length': (packed ?? bytes).length,
      vary: 'accept-encoding',
      ...(packed === undefined ? {} : { 'content-encoding': 'gzip' }),
    });
    response.end(head ? undefined : (packed ?? bytes));
  };
  const fail = (response: ServerResponse, status: number, code: ViewerErrorCode, message: string, head = false) => sendJson(response, status, { error: { code, message } }, head);

  const live = (response: ServerResponse, sid: string) => {
    const controller = new AbortController();
    feeds.add(controller);
    response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
    response.write(': askloop live feed\n\n');
    const send = (event: string, data: unknown) => {
      if (response.writableEnded) return;
      let text: string;
      try {
        text = JSON.stringify(redact(data));
      } catch {
        // What cannot be sent ends the feed, not the viewer (an unbounded snapshot once threw out of the poll and ended the process).
        controller.abort();
        return;
      }
      response.write(`event: ${event}\ndata: ${text}\n\n`);
    };
    // A comment line now and then keeps proxies and the browser from timing the stream out (none while the client has
    // not read what was sent: it is not idle, and the comments would pile up for it).
    const keepAlive = setInterval(() => {
      if (!response.writableNeedDrain) response.write(': keep-alive\n\n');
    }, 15_000);
    const stop = () => {
      clearInterval(keepAlive);
      controller.abort();
      feeds.delete(controller);
    };
    controller.signal.addEventListener('abort', () => response.end(), { once: true });
    // The response's close (the browser went away, or the feed ended), not the request's: a GET's request closes once read.
    response.on('close', stop);
    watchSession(store, sid, pollMs, controller.signal, {
      onStart: (session, turns) => send('snapshot', { session, ...pageOfTurns(turns, redact) }),
      onSession: (session) => send('session', session),
      // Redacted before it is cut, as a page's turns are.
      onTurn: (turn) => send('turn', boundTurn(redact(turn) as TurnRecord)),
      onEnd: () => {
        send('end', {});
        stop();
      },
      // A client that does not read what it was sent (a stalled tab, a script that never reads) holds the polls until it
      // does: the store keeps what changed meanwhile, and the next poll sends it at once, instead of the server buffering
      // every saved turn for it in memory (a turn of 200 KB each time one was saved, for as long as the session ran).
      ready: () => (response.writableNeedDrain ? once(response, 'drain', { signal: controller.signal }).then(() => undefined, () => undefined) : undefined),
    }, options.resumeArgs);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (!isAllowedHost(request.headers.host, port)) {
      fail(response, 403, 'VIEW_HOST_REFUSED', 'this viewer answers only to 127.0.0.1 and localhost');
      return;
    }
    if (isCrossSiteRequest(request.headers)) {
      fail(response, 403, 'VIEW_CROSS_SITE_REFUSED', "this viewer answers only its own page, not another site's; open the printed URL");
      return;
    }
    const head = request.method === 'HEAD';
    if (request.method !== 'GET' && !head) {
      response.setHeader('allow', 'GET, HEAD');
      fail(response, 405, 'VIEW_METHOD_NOT_ALLOWED', 'the viewer is read-only: GET and HEAD only', head);
      return;
    }
    let url: URL;
    try {
      url = new URL(request.url ?? '/', 'http://127.0.0.1');
    } catch {
      // An absolute target that is no URL (`GET http://[ HTTP/1.1`): the request's fault, not the store's.
      fail(response, 400, 'VIEW_BAD_REQUEST', 'the request target is not a valid URL; ask for a path such as /api/sessions', head);
      return;
    }
    const path = url.pathname;
    if (path === '/' || path === '/index.html') {
      response.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': page.contentSecurityPolicy, 'content-length': Buffer.byteLength(page.html) });
      response.end(head ? undefined : page.html);
      return;
    }
    if (path === '/favicon.ico') {
      // Browsers ask for it unprompted; an empty answer keeps a 404 out of the console.
      response.writeHead(204, SECURITY_HEADERS);
      response.end();
      return;
    }
    if (path === '/api/sessions') {
      const query = parseSessionListQuery(url.searchParams);
      if ('error' in query) fail(response, 400, 'VIEW_BAD_REQUEST', query.error, head);
      else sendJson(response, 200, await listSessionPage(store, query, listLimit, redact), head, acceptsGzip(request));
      return;
    }
    const match = /^\/api\/sessions\/([^/]+)(?:(\/live)|\/turns\/([^/]*))?$/.exec(path);
    if (match === null) {
      fail(response, 404, 'VIEW_NOT_FOUND', `no such page: ${path}`, head);
      return;
    }
    let sid: string;
    try {
      sid = decodeURIComponent(match[1] as string);
    } catch {
      fail(response, 400, 'VIEW_BAD_REQUEST', 'the session id is not valid percent-encoding', head);
      return;
    }
    // An id no store holds (%00, a line break): the store would refuse it, and that is the request's fault, not the store's.
    const problem = sessionIdProblem(sid);
    if (problem !== undefined) {
      fail(response, 400, 'VIEW_BAD_REQUEST', `the session id ${JSON.stringify(sid)} ${problem}`, head);
      return;
    }
    // The start of one id names that session, as on the command line: the answer carries the full id.
    const found = await matchSessionId(store, sid);
    if (found.kind === 'ambiguous') {
      // The ids to pick from, as the commands name them (the page adds a link to the list searched for the start).
      fail(response, 409, 'VIEW_SESSION_AMBIGUOUS', ambiguousPrefixMessage(sid, found), head);
      return;
    }
    if (found.kind === 'none') {
      fail(response, 404, 'VIEW_SESSION_NOT_FOUND', `no session '${sid}' in the store${found.tooShort ? `; give at least ${MIN_SID_PREFIX} characters of an id` : ''}`, head);
      return;
    }
    const { session } = found;
    if (match[2] !== undefined && !head) {
      if (feeds.size >= maxLiveFeeds) {
        response.setHeader('retry-after', '5');
        fail(response, 503, 'VIEW_TOO_MANY_FEEDS', `${maxLiveFeeds} live feeds are open already, the most this viewer serves at once; close another page of it (a hidden tab holds none) and reload`);
        return;
      }
      live(response, session.sid);
      return;
    }
    if (match[3] !== undefined) {
      const turnIndex = parseTurnIndex('the turn in /turns/N', match[3]);
      if (typeof turnIndex !== 'number') {
        fail(response, 400, 'VIEW_BAD_REQUEST', turnIndex.error, head);
        return;
      }
      // One turn whole, as the page's "Load the whole turn" asks: what its page cut (bound-turn.ts), uncut.
      const [turn] = await listTurnRange(store, session.sid, { from: turnIndex, to: turnIndex });
      if (turn === undefined) fail(response, 404, 'VIEW_TURN_NOT_FOUND', `session ${session.sid} has no turn ${turnIndex}; its page lists the turns it has`, head);
      else sendJson(response, 200, { turn }, head, acceptsGzip(request));
      return;
    }
    const beforeText = url.searchParams.get('before');
    const before = beforeText === null ? undefined : parseTurnIndex('before', beforeText);
    if (typeof before === 'object') {
      fail(response, 400, 'VIEW_BAD_REQUEST', `${before.error}: ?before=N asks for the turns before turn N`, head);
      return;
    }
    const turns = await readTurnPage(store, session.sid, before, redact);
    sendJson(response, 200, { session: await servedSession(store, session, options.resumeArgs), ...turns }, head, acceptsGzip(request));
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      // The store's message, never a stack; the store holds no keys, and the redactor runs anyway.
      // A file SQLite cannot read is said to be damaged, with the fix, as the CLI's commands say it.
      const message = isDamagedStore(error) ? damagedStoreMessage(error, options.storeName) : error instanceof Error ? error.message : String(error);
      if (!response.headersSent) fail(response, 500, 'VIEW_STORE_ERROR', message);
      else response.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    liveFeeds: () => feeds.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const feed of feeds) feed.abort();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
