/**
 * The viewer's HTTP API over real loopback HTTP and a real SQLite store
 * holding sessions run through the loop: the list, one session, the live
 * feed, the Host check, read-only methods, and no key anywhere.
 */
import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteTranscriptStore, type ListSessionsOptions, type SqliteTranscriptStore } from '@askloop/controller';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startViewer, type Viewer } from '../src/view/index.ts';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { createViewerFixture, FAKE_KEY, type ViewerFixture } from './view-fixture.ts';
import { seedSession, seedTurn } from './view-seed.ts';

let dir = '';
let fixture: ViewerFixture;
let viewer: Viewer;
/** The viewer's own read-only connection to the file, as `askloop view` in another process has. */
let readStore: SqliteTranscriptStore;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'askloop-view-api-'));
  fixture = await createViewerFixture(join(dir, 'sessions.db'));
  readStore = createSqliteTranscriptStore(join(dir, 'sessions.db'), { readOnly: true });
  viewer = await startViewer({ store: readStore, pollMs: 50, env: { OPENAI_API_KEY: FAKE_KEY } });
});
afterAll(async () => {
  await viewer?.close();
  await readStore?.close();
  await fixture?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A raw request, so the Host header and method can be anything. */
function raw(path: string, options: { host?: string | null; method?: string } = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: viewer.port, path, method: options.method ?? 'GET', setHost: false, headers: options.host === null ? {} : { host: options.host ?? `127.0.0.1:${viewer.port}` } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** A GET with `accept-encoding`, its body as bytes (not decoded). */
function rawBytes(path: string, acceptEncoding: string): Promise<{ headers: Record<string, unknown>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: viewer.port, path, headers: { 'accept-encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the API', () => {
  it("gzips a long session's JSON for a client that accepts it (its turns each repeat the system text), and only then", async () => {
    const sid = await seedSession(fixture.store, 'api-gzipped', { turns: 60 });
    const plain = await rawBytes(`/api/sessions/${sid}`, 'identity');
    const packed = await rawBytes(`/api/sessions/${sid}`, 'br, gzip;q=0.8');
    const refused = await rawBytes(`/api/sessions/${sid}`, 'gzip;q=0, br');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(packed.headers['content-encoding']).toBe('gzip');
    expect(packed.headers['vary']).toBe('accept-encoding');
    expect(Number(packed.headers['content-length'])).toBe(packed.body.length);
    expect(gunzipSync(packed.body).equals(plain.body)).toBe(true);
    expect(packed.body.length * 5).toBeLessThan(plain.body.length);
    // A small answer goes as it is.
    expect((await rawBytes('/api/sessions/nope-nope', 'gzip')).headers['content-encoding']).toBeUndefined();
  });

  it('listens on the loopback address and prints a URL on it', () => {
    expect(viewer.url).toBe(`http://127.0.0.1:${viewer.port}/`);
    expect(viewer.port).toBeGreaterThan(0);
  });

  it('lists the sessions with task, status and turns', async () => {
    const response = await fetch(new URL('/api/sessions', viewer.url));
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const { sessions } = (await response.json()) as { sessions: { sid: string; task: string; status: string; turns: number; lastDecision: { kind: string } | null }[] };
    const done = sessions.find((s) => s.sid === fixture.done);
    expect(done).toMatchObject({ task: 'Count the words of the sentence and find the longest.', status: 'done', turns: 3, lastDecision: { kind: 'DONE' } });
    expect(sessions.find((s) => s.sid === fixture.running)).toMatchObject({ status: 'running', turns: 1 });
  });

  it('returns a session with its turns: programs, tool calls with arguments and results, decisions', async () => {
    const body = (await (await fetch(new URL(`/api/sessions/${fixture.done}`, viewer.url))).json()) as {
      session: { status: string };
      turns: { turnIndex: number; actions: string; toolCalls: { name: string; args: unknown[]; result: unknown }[]; diagnostics: { code: string }[]; decision: { kind: string; next?: string } }[];
    };
    expect(body.session.status).toBe('done');
    expect(body.turns.map((turn) => turn.decision.kind)).toEqual(['CONTINUE', 'CONTINUE', 'DONE']);
    expect(body.turns[0]?.toolCalls[0]).toMatchObject({ name: 'tool.str.splitwords', args: ['the quick brown fox jumps over the lazy dog'] });
    expect(body.turns[0]?.toolCalls[1]).toMatchObject({ name: 'tool.str.toupper', result: 'THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG' });
    // Turn 2 calls a tool that does not exist: refused before running, repaired on turn 3.
    expect(body.turns[1]?.diagnostics.length).toBeGreaterThan(0);
    expect(body.turns[1]?.decision.next).toBe('repair');
  });

  it('answers an unknown session with a JSON 404', async () => {
    const response = await fetch(new URL('/api/sessions/nope', viewer.url));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'VIEW_SESSION_NOT_FOUND', message: "no session 'nope' in the store" } });
  });

  it('names the ids an ambiguous start matches, newest first, five and how many more, in the words askloop show uses (walkthrough: only the count was said)', async () => {
    for (let index = 1; index <= 7; index++) await seedSession(fixture.store, `feed000${index}-many`, { createdAt: `2026-11-26T00:00:0${index}.000Z` });
    const response = await fetch(new URL('/api/sessions/feed000', viewer.url));
    expect(response.status).toBe(409);
    const message = "'feed000' is the start of 7 session ids (feed0007-many, feed0006-many, feed0005-many, feed0004-many, feed0003-many, and 2 more); give more of it";
    expect(await response.json()).toEqual({ error: { code: 'VIEW_SESSION_AMBIGUOUS', message } });
    // The command line says the same of the same start, in the same file.
    const io = captureIo();
    expect(await main(['show', 'feed000', '--db', join(dir, 'sessions.db')], io)).toBe(2);
    expect(io.err.split('\n')[0]).toBe(`askloop: ${message} (CLI_USAGE)`);
  });

  it('answers a session id no store holds (U+0000, a line break) with a JSON 400 naming the problem', async () => {
    const nul = await fetch(new URL('/api/sessions/a%00b', viewer.url));
    expect(nul.status).toBe(400);
    expect(await nul.json()).toEqual({ error: { code: 'VIEW_BAD_REQUEST', message: 'the session id "a\\u0000b" must not contain control characters, got U+0000 at index 1' } });
    const newline = await fetch(new URL('/api/sessions/two%0Alines/live', viewer.url));
    expect(newline.status).toBe(400);
    expect(((await newline.json()) as { error: { code: string } }).error.code).toBe('VIEW_BAD_REQUEST');
  });

  it('answers a request target that is no URL with a JSON 400, not as a store error', async () => {
    const response = await raw('http://[');
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body)).toEqual({ error: { code: 'VIEW_BAD_REQUEST', message: 'the request target is not a valid URL; ask for a path such as /api/sessions' } });
  });

  it('opens a session by the start of its id, and says when a start names several or none', async () => {
    const prefix = fixture.done.slice(0, 8);
    const body = (await (await fetch(new URL(`/api/sessions/${prefix}`, viewer.url))).json()) as { session: { sid: string }; turns: unknown[] };
    expect(body.session.sid).toBe(fixture.done);
    expect(body.turns).toHaveLength(3);
    await seedSession(fixture.store, 'cafe0001-api-one', { createdAt: '2026-11-27T00:00:01.000Z' });
    await seedSession(fixture.store, 'cafe0002-api-two', { createdAt: '2026-11-27T00:00:02.000Z' });
    const ambiguous = await fetch(new URL('/api/sessions/cafe000', viewer.url));
    expect(ambiguous.status).toBe(409);
    expect(await ambiguous.json()).toEqual({ error: { code: 'VIEW_SESSION_AMBIGUOUS', message: "'cafe000' is the start of 2 session ids (cafe0002-api-two, cafe0001-api-one); give more of it" } });
    expect(((await (await fetch(new URL('/api/sessions/cafe0002', viewer.url))).json()) as { session: { sid: string } }).session.sid).toBe('cafe0002-api-two');
    const short = await fetch(new URL(`/api/sessions/${fixture.done.slice(0, 3)}`, viewer.url));
    expect(short.status).toBe(404);
    expect(await short.json()).toEqual({ error: { code: 'VIEW_SESSION_NOT_FOUND', message: `no session '${fixture.done.slice(0, 3)}' in the store; give at least 4 characters of an id` } });
    // The live feed takes a prefix too, and follows the full id.
    const controller = new AbortController();
    const live = await fetch(new URL(`/api/sessions/${fixture.running.slice(0, 8)}/live`, viewer.url), { signal: controller.signal });
    const [first] = await nextEvents(readEvents(live.body as ReadableStream<Uint8Array>), (seen) => seen.length > 0);
    expect(first?.event).toBe('snapshot');
    expect((JSON.parse(first?.data ?? '{}') as { session: { sid: string } }).session.sid).toBe(fixture.running);
    controller.abort();
  });

  it('serves one self-contained page with a strict Content-Security-Policy', async () => {
    const response = await fetch(viewer.url);
    const html = await response.text();
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+'; connect-src 'self'/);
    // Nothing is loaded from anywhere else (the one URL in the page is the SVG namespace, which is a name, not a request).
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|<img/);
    expect(html.replaceAll('http://www.w3.org/2000/svg', '')).not.toMatch(/https?:\/\//);
  });

  it('refuses other Host headers (DNS rebinding), missing ones, and other ports', async () => {
    for (const host of ['evil.example:' + viewer.port, `127.0.0.1:${viewer.port + 1}`, `127.0.0.1.evil.example:${viewer.port}`, `127.0.0.1`, '']) {
      const response = await raw('/api/sessions', { host });
      expect(response.status, host).toBe(403);
      expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'VIEW_HOST_REFUSED' } });
      expect(response.body).not.toContain(fixture.done);
    }
    // Without a Host header at all, Node's HTTP/1.1 server answers 400 before the viewer sees the request.
    const missing = await raw('/api/sessions', { host: null });
    expect(missing.status).toBe(400);
    expect(missing.body).not.toContain(fixture.done);
    expect((await raw('/api/sessions', { host: `localhost:${viewer.port}` })).status).toBe(200);
  });

  it('is read-only', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const response = await raw(`/api/sessions/${fixture.done}`, { method });
      expect(response.status, method).toBe(405);
      expect(response.headers.allow).toBe('GET, HEAD');
    }
  });

  it('never shows the key: not in the store, not in any response', async () => {
    const stored = JSON.stringify({ sessions: await fixture.store.listSessions(), turns: [await fixture.store.listTurns(fixture.done), await fixture.store.listTurns(fixture.running)] });
    expect(stored).not.toContain(FAKE_KEY);
    const responses = await Promise.all(['/', '/api/sessions', `/api/sessions/${fixture.done}`, `/api/sessions/${fixture.running}`].map(async (path) => (await fetch(new URL(path, viewer.url))).text()));
    for (const text of responses) expect(text).not.toContain('0123456789abcdef-NOT-A-REAL-KEY');
  });

  it('stops polling for a page that went away', async () => {
    const controller = new AbortController();
    const response = await fetch(new URL(`/api/sessions/${fixture.running}/live`, viewer.url), { signal: controller.signal });
    const events = readEvents(response.body as ReadableStream<Uint8Array>);
    await nextEvents(events, (seen) => seen.some((e) => e.event === 'snapshot'));
    expect(viewer.liveFeeds()).toBe(1);
    controller.abort();
    await expect.poll(() => viewer.liveFeeds()).toBe(0);
  });

  it('marks a running session no host runs (its lease lapsed, quiet for a while) as orphaned, and the live feed says when it becomes so', async () => {
    const quietSince = new Date(Date.now() - 60_000).toISOString();
    const sid = await seedSession(fixture.store, 'api-orphaned', { createdAt: quietSince });
    const get = async () => ((await (await fetch(new URL(`/api/sessions/${sid}`, viewer.url))).json()) as { session: { orphaned?: boolean } }).session;
    // Never leased (waiting for a worker, say): not said to be orphaned.
    expect(await get()).not.toHaveProperty('orphaned');
    // A host holds its lease: running.
    expect(await fixture.store.acquireLease!(sid, 'host-a', 60_000)).toBe(true);
    expect(await get()).not.toHaveProperty('orphaned');
    const controller = new AbortController();
    const response = await fetch(new URL(`/api/sessions/${sid}/live`, viewer.url), { signal: controller.signal });
    const events = readEvents(response.body as ReadableStream<Uint8Array>);
    const first = await nextEvents(events, (seen) => seen.some((e) => e.event === 'snapshot'));
    expect(JSON.parse(first[0]?.data ?? '{}').session).not.toHaveProperty('orphaned');
    // Given up (a session its own code steps now and then): not orphaned.
    await fixture.store.releaseLease!(sid, 'host-a');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await get()).not.toHaveProperty('orphaned');
    // A host that dies leaves its lease to lapse (here one of 1 ms), and the session has been quiet for a minute.
    expect(await fixture.store.acquireLease!(sid, 'host-b', 1)).toBe(true);
    const next = await nextEvents(events, (seen) => seen.some((e) => e.event === 'session'));
    expect(JSON.parse(next.find((e) => e.event === 'session')?.data ?? '{}')).toMatchObject({ status: 'running', orphaned: true });
    expect(await get()).toMatchObject({ orphaned: true });
    controller.abort();
  });

  // Walkthrough: the page said `askloop resume SID continues it` without the --db the viewer was given, so the pasted
  // command looked in the default store.
  it("gives a session no host runs the command that continues it, with the viewer's --db", async () => {
    const sid = await seedSession(fixture.store, 'api-orphaned-resume', { createdAt: new Date(Date.now() - 60_000).toISOString() });
    expect(await fixture.store.acquireLease!(sid, 'dead-host', 1)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const withDb = await startViewer({ store: readStore, resumeArgs: ' --db /srv/askloop/sessions.db' });
    try {
      const served = ((await (await fetch(new URL(`/api/sessions/${sid}`, withDb.url))).json()) as { session: Record<string, unknown> }).session;
      expect(served).toMatchObject({ orphaned: true, resume: `askloop resume ${sid} --db /srv/askloop/sessions.db` });
      const controller = new AbortController();
      const response = await fetch(new URL(`/api/sessions/${sid}/live`, withDb.url), { signal: controller.signal });
      const events = readEvents(response.body as ReadableStream<Uint8Array>);
      const first = await nextEvents(events, (seen) => seen.some((e) => e.event === 'snapshot'));
      expect(JSON.parse(first[0]?.data ?? '{}').session).toMatchObject({ resume: `askloop resume ${sid} --db /srv/askloop/sessions.db` });
      controller.abort();
    } finally {
      await withDb.close();
    }
    // Without resumeArgs (the default store), the bare command.
    expect(((await (await fetch(new URL(`/api/sessions/${sid}`, viewer.url))).json()) as { session: Record<string, unknown> }).session).toMatchObject({ resume: `askloop resume ${sid}` });
  });

  it('sends what a long running session has stored in one message, then each new turn alone', async () => {
    const sid = await seedSession(fixture.store, 'api-long-running', { turns: 40 });
    const controller = new AbortController();
    const response = await fetch(new URL(`/api/sessions/${sid}/live`, viewer.url), { signal: controller.signal });
    const events = readEvents(response.body as ReadableStream<Uint8Array>);
    const first = await nextEvents(events, (seen) => seen.length > 0);
    expect(first.map((e) => e.event)).toEqual(['snapshot']);
    const snapshot = JSON.parse(first[0]?.data ?? '{}') as { session: { sid: string }; turns: { turnIndex: number }[] };
    expect(snapshot.session.sid).toBe(sid);
    expect(snapshot.turns.map((turn) => turn.turnIndex)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    // A 41st turn: the session row and that turn, not the 40 again.
    const session = (await fixture.store.getSession(sid))!;
    await fixture.store.saveTurn(seedTurn(sid, 41), { ...session, turns: 41, updatedAt: new Date(Date.parse(session.updatedAt) + 1000).toISOString() });
    const next = await nextEvents(events, (seen) => seen.some((e) => e.event === 'turn'));
    expect(next.map((e) => e.event)).toEqual(['session', 'turn']);
    expect(JSON.parse(next[1]?.data ?? '{}')).toMatchObject({ turnIndex: 41 });
    controller.abort();
  });

  // Last: it steps the running session to its end.
  it('streams a running session live: what is stored, then each new turn, then the end', async () => {
    const controller = new AbortController();
    const response = await fetch(new URL(`/api/sessions/${fixture.running}/live`, viewer.url), { signal: controller.signal });
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const events = readEvents(response.body as ReadableStream<Uint8Array>);
    const first = await nextEvents(events, (seen) => seen.some((e) => e.event === 'snapshot'));
    expect(first.map((e) => e.event)).toEqual(['snapshot']);
    const snapshot = JSON.parse(first[0]?.data ?? '{}') as { session: { status: string }; turns: unknown[] };
    expect(snapshot.session).toMatchObject({ status: 'running' });
    expect(snapshot.turns).toEqual([expect.objectContaining({ turnIndex: 1, decision: { kind: 'CONTINUE' } })]);
    // Another turn, written while the feed is open (through the loop's connection; the viewer polls its own connection to the file, as another process would).
    await fixture.loop.step(fixture.running);
    const rest = await nextEvents(events, (seen) => seen.some((e) => e.event === 'end'));
    const turns = rest.filter((e) => e.event === 'turn').map((e) => JSON.parse(e.data) as { turnIndex: number; phase: string; decision?: { kind: string } });
    expect(turns.at(-1)).toMatchObject({ turnIndex: 2, phase: 'decided', decision: { kind: 'DONE' } });
    const sessions = rest.filter((e) => e.event === 'session').map((e) => JSON.parse(e.data) as { status: string });
    expect(sessions.at(-1)).toMatchObject({ status: 'done' });
    controller.abort();
  });
});

interface SseEvent {
  event: string;
  data: string;
}

/** Parses a Server-Sent Events stream into events (comments skipped). */
async function* readEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const lines = block.split('\n').filter((line) => !line.startsWith(':'));
      if (lines.length === 0) continue;
      const field = (name: string) => lines.find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2) ?? '';
      yield { event: field('event'), data: field('data') };
    }
  }
}

/** Reads events until `done` says enough. */
async function nextEvents(events: AsyncGenerator<SseEvent>, done: (seen: SseEvent[]) => boolean): Promise<SseEvent[]> {
  const seen: SseEvent[] = [];
  while (!done(seen)) {
    const next = await events.next();
    if (next.done === true) break;
    seen.push(next.value);
  }
  return seen;
}

describe('the list in pages', () => {
  let pagesDir = '';
  let store: SqliteTranscriptStore;
  let paged: Viewer;
  /** Every `listSessions` the viewer made: the limits must be what a strict store accepts. */
  const asked: { status?: string; search?: string; offset?: number; limit?: number }[] = [];
  /** The seven sessions, newest first: agents alpha and beta, the third-newest done. */
  const sids = ['s7', 's6', 's5', 's4', 's3', 's2', 's1'].map((n) => `${n}-pages`);

  beforeAll(async () => {
    pagesDir = mkdtempSync(join(tmpdir(), 'askloop-view-pages-'));
    store = createSqliteTranscriptStore(join(pagesDir, 'sessions.db'));
    for (const [index, sid] of [...sids].reverse().entries()) {
      await seedSession(store, sid, { agent: index % 2 === 0 ? 'alpha' : 'beta', task: `Task number ${index + 1}`, status: sid === 's5-pages' ? 'done' : 'running', createdAt: `2026-11-27T00:00:0${index}.000Z` });
    }
    const spied = { ...store, listSessions: (options?: ListSessionsOptions) => (asked.push({ ...options }), store.listSessions(options)) };
    paged = await startViewer({ store: spied, listLimit: 3 });
  });
  afterAll(async () => {
    await paged?.close();
    await store?.close();
    rmSync(pagesDir, { recursive: true, force: true });
  });

  const list = async (query: string) => {
    const response = await fetch(new URL(`/api/sessions${query}`, paged.url));
    return { status: response.status, body: (await response.json()) as { sessions: { sid: string }[]; offset: number; pageSize: number; next: number | null; error?: { code: string; message: string } } };
  };

  it('reaches every session, a page of the page size at a time, newest first', async () => {
    const seen: string[] = [];
    let offset: number | null = 0;
    const pages: (number | null)[] = [];
    while (offset !== null) {
      const { status, body } = await list(offset === 0 ? '' : `?offset=${offset}`);
      expect(status).toBe(200);
      expect(body.sessions.length).toBeLessThanOrEqual(3);
      expect(body).toMatchObject({ offset, pageSize: 3 });
      seen.push(...body.sessions.map((s) => s.sid));
      pages.push(body.next);
      offset = body.next;
    }
    expect(pages).toEqual([3, 6, null]);
    expect(seen).toEqual(sids);
    expect((await list('?offset=50')).body).toEqual({ sessions: [], offset: 50, pageSize: 3, next: null });
  });

  it('searches ids, agents and tasks, and narrows by status, on the server', async () => {
    expect((await list('?q=BETA')).body.sessions.map((s) => s.sid)).toEqual(['s6-pages', 's4-pages', 's2-pages']);
    expect((await list('?q=number%204')).body.sessions.map((s) => s.sid)).toEqual(['s4-pages']);
    expect((await list('?q=s1-')).body.sessions.map((s) => s.sid)).toEqual(['s1-pages']);
    const alpha = await list('?q=alpha');
    expect(alpha.body.sessions.map((s) => s.sid)).toEqual(['s7-pages', 's5-pages', 's3-pages']);
    expect(alpha.body.next).toBe(3);
    expect((await list('?q=alpha&offset=3')).body).toMatchObject({ sessions: [{ sid: 's1-pages' }], next: null });
    expect((await list('?status=done')).body.sessions.map((s) => s.sid)).toEqual(['s5-pages']);
    expect((await list('?status=running&q=beta&offset=2')).body.sessions.map((s) => s.sid)).toEqual(['s2-pages']);
  });

  it('leaves the search and the paging to the store, which reads one page and one more session whatever its size', async () => {
    asked.length = 0;
    expect((await list('?q=  Number%206 &offset=0')).body.sessions.map((s) => s.sid)).toEqual(['s6-pages']);
    expect((await list('?status=running&q=beta&offset=2')).body.sessions.map((s) => s.sid)).toEqual(['s2-pages']);
    expect((await list('?offset=3')).body.sessions.map((s) => s.sid)).toEqual(['s4-pages', 's3-pages', 's2-pages']);
    expect(asked).toEqual([
      { search: 'Number 6', offset: 0, limit: 4 },
      { status: 'running', search: 'beta', offset: 2, limit: 4 },
      { offset: 3, limit: 4 },
    ]);
  });

  it('finds no session by text it shows redacted: a key in a task cannot be guessed a character at a time', async () => {
    const secretDir = mkdtempSync(join(tmpdir(), 'askloop-view-secret-'));
    const secretStore = createSqliteTranscriptStore(join(secretDir, 'sessions.db'));
    const key = 'ghp_0123456789abcdefghijABCDEFGHIJ0123';
    await seedSession(secretStore, 'with-key', { task: `deploy with ${key} please` });
    await seedSession(secretStore, 'plain', { task: 'deploy by hand' });
    const secretViewer = await startViewer({ store: secretStore, env: { DEPLOY_TOKEN: 'hunter2-deploy-token' } });
    const search = async (q: string) => {
      const response = await fetch(new URL(`/api/sessions?q=${encodeURIComponent(q)}`, secretViewer.url));
      return ((await response.json()) as { sessions: { sid: string; task: string }[] }).sessions.map((row) => row.sid);
    };
    try {
      // Text around the key still finds it, shown redacted.
      expect(await search('deploy')).toEqual(['plain', 'with-key']);
      expect(await search('please')).toEqual(['with-key']);
      // The key's start, a longer start, the whole key: nothing (the store found them; the page leaves them out).
      for (const q of ['ghp_0', 'ghp_0123456789', key, `with ${key.slice(0, 20)}`]) expect(await search(q), q).toEqual([]);
      await seedSession(secretStore, 'env-token', { task: 'rotate hunter2-deploy-token today' });
      expect(await search('hunter2')).toEqual([]);
      expect(await search('rotate')).toEqual(['env-token']);
      // The store itself does find them: without the filter the search would tell.
      expect((await secretStore.listSessions({ search: 'ghp_0' })).map((row) => row.sid)).toEqual(['with-key']);
    } finally {
      await secretViewer.close();
      await secretStore.close();
      rmSync(secretDir, { recursive: true, force: true });
    }
  });

  it('refuses a bad offset, status or search with VIEW_BAD_REQUEST, and asks the store only for whole limits', async () => {
    for (const query of ['?offset=-1', '?offset=1.5', '?offset=1e3', '?offset=x', '?offset=99999999999', '?status=lost', `?q=${'x'.repeat(201)}`, '?q=tab%09inside', '?q=%00']) {
      const { status, body } = await list(query);
      expect(status, query).toBe(400);
      expect(body.error?.code, query).toBe('VIEW_BAD_REQUEST');
    }
    expect(asked.length).toBeGreaterThan(0);
    for (const options of asked) if (options.limit !== undefined) expect(Number.isSafeInteger(options.limit) && options.limit >= 0, JSON.stringify(options)).toBe(true);
    await expect(startViewer({ store, listLimit: 0 })).rejects.toThrow('listLimit must be a positive safe integer');
  });
});
