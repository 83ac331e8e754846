import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompressSync, constants as zlibConstants, createGzip, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createNodeHttpFetch } from './node-http-fetch.ts';

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
});

/** A loopback server (HTTPS with `tls`) answering each request with `handler` once its body has arrived; counts connections. */
async function serve(handler: Handler, tls?: { cert: string; key: string }): Promise<{ url: string; connections: () => number }> {
  const server: Server = tls === undefined ? createServer() : createHttpsServer(tls);
  let connections = 0;
  server.on('connection', () => (connections += 1));
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => handler(request, body, response));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${port}`, connections: () => connections };
}

const neverFallBack = vi.fn((): Promise<Response> => Promise.reject(new Error('the fallback was used')));

describe('createNodeHttpFetch', () => {
  it('sends the method, headers and body, and answers with status, headers, body and url as fetch does', async () => {
    let seen: { method?: string; headers?: IncomingMessage['headers']; body?: string } = {};
    const { url } = await serve((request, body, response) => {
      seen = { method: request.method, headers: request.headers, body };
      response.writeHead(201, 'Made', [['content-type', 'application/json'], ['set-cookie', 'a=1'], ['set-cookie', 'b=2'], ['x-Trace', 'abc']]);
      response.end('{"ok":true}');
    });
    const fetch = createNodeHttpFetch({ fallback: neverFallBack });
    const response = await fetch(`${url}/v1/chat?x=1#part`, { method: 'POST', headers: [['Content-Type', 'application/json'], ['X-Many', 'a'], ['x-many', 'b']], body: '{"q":"é"}' });
    expect(seen.method).toBe('POST');
    expect(seen.body).toBe('{"q":"é"}');
    expect(seen.headers).toMatchObject({ 'content-type': 'application/json', 'x-many': 'a, b', accept: '*/*', 'content-length': String(Buffer.byteLength('{"q":"é"}')) });
    expect(response.status).toBe(201);
    expect(response.statusText).toBe('Made');
    expect(response.ok).toBe(true);
    expect(response.url).toBe(`${url}/v1/chat?x=1`);
    expect([response.type, response.redirected, response.clone().url]).toEqual(['basic', false, `${url}/v1/chat?x=1`]);
    expect(response.headers.get('x-trace')).toBe('abc');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.json()).toEqual({ ok: true });
    expect(neverFallBack).not.toHaveBeenCalled();
  });

  it('labels a string body text/plain when the caller gave no content type, as fetch does', async () => {
    const types: (string | undefined)[] = [];
    const { url } = await serve((request, _body, response) => {
      types.push(request.headers['content-type']);
      response.end();
    });
    const fetch = createNodeHttpFetch({ fallback: neverFallBack });
    await fetch(url, { method: 'POST', body: 'text' });
    await fetch(url, { method: 'POST', body: new Uint8Array([1, 2]) });
    await fetch(url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    expect(types).toEqual(['text/plain;charset=UTF-8', undefined, 'application/json']);
  });

  it('delivers a streamed body as it arrives, before the server has finished', async () => {
    let finish: () => void = () => {};
    const { url } = await serve((_request, _body, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: first\n\n');
      finish = () => response.end('data: last\n\n');
    });
    const response = await createNodeHttpFetch({ fallback: neverFallBack })(url, { method: 'POST', body: '{}' });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: first\n\n');
    finish();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) rest += new TextDecoder().decode(chunk.value);
    expect(rest).toBe('data: last\n\n');
  });

  it('decodes gzip and brotli bodies, as fetch does', async () => {
    const text = 'a compressed reply '.repeat(200);
    const { url } = await serve((request, _body, response) => {
      const gzip = request.url === '/gzip';
      response.writeHead(200, { 'content-encoding': gzip ? 'gzip' : 'br' });
      response.end(gzip ? gzipSync(text) : brotliCompressSync(text));
    });
    const fetch = createNodeHttpFetch({ fallback: neverFallBack });
    expect(await (await fetch(`${url}/gzip`)).text()).toBe(text);
    expect(await (await fetch(`${url}/br`)).text()).toBe(text);
  });

  it('decodes what arrived of a gzip body cut before its trailer, as fetch does', async () => {
    const { url } = await serve((_request, _body, response) => {
      const whole = gzipSync('hello world');
      response.writeHead(200, { 'content-encoding': 'gzip' });
      response.end(whole.subarray(0, whole.length - 8));
    });
    expect(await (await createNodeHttpFetch({ fallback: neverFallBack })(url)).text()).toBe('hello world');
  });

  it('survives aborts and cancels in the middle of a compressed stream, and frees a body that does not decode', async () => {
    const closed: Promise<void>[] = [];
    const { url } = await serve((request, _body, response) => {
      closed.push(new Promise((resolve) => request.socket.once('close', () => resolve())));
      if (request.url === '/corrupt') {
        response.writeHead(200, { 'content-encoding': 'gzip' });
        response.end(Buffer.alloc(64 * 1024, 7));
        return;
      }
      response.writeHead(200, { 'content-encoding': 'gzip' });
      const gzip = createGzip({ flush: zlibConstants.Z_SYNC_FLUSH });
      gzip.pipe(response);
      const timer = setInterval(() => gzip.write(`data: ${'x'.repeat(2000)}\n\n`), 1);
      response.on('close', () => clearInterval(timer));
    });
    const fetch = createNodeHttpFetch({ fallback: neverFallBack });
    for (let round = 0; round < 20; round += 1) {
      const controller = new AbortController();
      const reader = ((await fetch(`${url}/stream`, { signal: controller.signal })).body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      if (round % 2 === 0) {
        controller.abort(new Error('stop'));
        await expect(reader.read()).rejects.toThrow('stop');
      } else await reader.cancel();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const failure = await (await fetch(`${url}/corrupt`)).text().catch((error: unknown) => error);
    expect(failure).toMatchObject({ message: 'terminated', cause: { code: 'Z_DATA_ERROR' } });
    // Every connection, the one whose body did not decode included, is closed by the client rather than left hanging
    // until the server's own keep-alive timeout (5 s) closes it.
    const leftOpen = new Promise((_resolve, reject) => setTimeout(() => reject(new Error('a connection was left open')), 2_000).unref());
    await Promise.race([Promise.all(closed), leftOpen]);
  });

  it('closes an idle connection after keepAliveMs, and never a request waiting that long for its answer', async () => {
    let closedAt = 0;
    const { url, connections } = await serve((request, _body, response) => {
      request.socket.once('close', () => (closedAt = performance.now()));
      setTimeout(() => response.end('late'), request.url === '/slow' ? 400 : 0);
    });
    const fetch = createNodeHttpFetch({ fallback: neverFallBack, keepAliveMs: 150 });
    expect(await (await fetch(`${url}/slow`)).text()).toBe('late');
    const idleFrom = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 600));
    // Polled: after a pause of this process the timers (the wait's, the idle one's) run before the close is read. Within
    // 3 s, so the close is the client's and not the server's own keep-alive timeout (Node's default, 5 s).
    await expect.poll(() => closedAt, { timeout: 3_000 }).toBeGreaterThan(idleFrom);
    expect(await (await fetch(url)).text()).toBe('late');
    expect(connections()).toBe(2);
  });

  it('refuses a keepAliveMs that is no whole number of milliseconds a timer can hold (PROVIDER_CONFIG)', () => {
    for (const keepAliveMs of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, '5' as unknown as number]) {
      expect(() => createNodeHttpFetch({ keepAliveMs })).toThrow(expect.objectContaining({ code: 'PROVIDER_CONFIG', message: expect.stringContaining('keepAliveMs') }));
    }
    expect(() => createNodeHttpFetch({ keepAliveMs: 0 })).not.toThrow();
  });

  it('answers 204 and HEAD with no body', async () => {
    const { url } = await serve((request, _body, response) => {
      response.writeHead(request.method === 'HEAD' ? 200 : 204, { 'x-kind': 'empty' });
      response.end();
    });
    const fetch = createNodeHttpFetch({ fallback: neverFallBack });
    const none = await fetch(url, { method: 'DELETE' });
    expect([none.status, none.body, none.headers.get('x-kind')]).toEqual([204, null, 'empty']);
    const head = await fetch(url, { method: 'HEAD' });
    expect([head.status, head.body]).toEqual([200, null]);
  });

  it('keeps connections alive across requests', async () => {
    const { url, connections } = await serve((_request, _body, response) => response.end('ok'));
    const fetch = createNodeHttpFetch({ fallback: neverFallBack });
    for (let index = 0; index < 5; index += 1) expect(await (await fetch(url, { method: 'POST', body: String(index) })).text()).toBe('ok');
    expect(connections()).toBe(1);
  });

  it("keeps every idle connection, not only Node's default of 256", async () => {
    const { url, connections } = await serve((_request, _body, response) => setTimeout(() => response.end('ok'), 20));
    const fetch = createNodeHttpFetch({ fallback: neverFallBack });
    const burst = () => Promise.all(Array.from({ length: 300 }, async () => (await fetch(url)).text()));
    await burst();
    await burst();
    expect(connections()).toBe(300);
  });

  it('follows redirects as fetch does, sending each request once: 303 turns a POST into a GET, 307 sends it again', async () => {
    const seen: string[] = [];
    const { url } = await serve((request, body, response) => {
      seen.push(`${request.method} ${request.url} ${body} ${request.headers['content-type'] ?? '-'}`);
      if (request.url === '/create') response.writeHead(303, { location: '/done' }).end();
      else if (request.url === '/moved') response.writeHead(307, { location: '/done#part' }).end();
      else response.end(`at ${request.url}`);
    });
    const fetch = createNodeHttpFetch({ fallback: neverFallBack });
    const seeOther = await fetch(`${url}/create`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"make":1}' });
    expect([await seeOther.text(), seeOther.redirected, seeOther.url]).toEqual(['at /done', true, `${url}/done`]);
    expect(seen.splice(0)).toEqual(['POST /create {"make":1} application/json', 'GET /done  -']);
    const temporary = await fetch(`${url}/moved`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'again' });
    expect([await temporary.text(), temporary.url]).toEqual(['at /done', `${url}/done`]);
    expect(seen.splice(0)).toEqual(['POST /moved again text/plain', 'POST /done again text/plain']);
    expect(neverFallBack).not.toHaveBeenCalled();
  });

  it('sends a string body of multi-byte UTF-8 byte-exact, with its byte length as content-length, also again after a 307 and a 308', async () => {
    // The body is written as the string itself (not copied into a Buffer first): its bytes and length must be those fetch sends.
    const received: { path: string; length: string | undefined; bytes: Buffer }[] = [];
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ path: request.url ?? '', length: request.headers['content-length'], bytes: Buffer.concat(chunks) });
        if (request.url === '/307') response.writeHead(307, { location: '/308' }).end();
        else if (request.url === '/308') response.writeHead(308, { location: '/done' }).end();
        else response.end('ok');
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const fetch = createNodeHttpFetch({ fallback: neverFallBack });
    const bodies = [
      '{"q":"café naïve"}', // only Latin-1 characters: held by V8 one byte a character, sent as two bytes each
      '{"q":"é € 😀 日本語 ñ"}', // 2-, 3- and 4-byte sequences
      'lone \ud83d surrogate \udc00 end', // encoded as U+FFFD, as fetch encodes it
      `{"system":"${'Ünïcödé → 🚀 文字 '.repeat(6_000)}"}`, // about 160 KB: written in several pieces
    ];
    for (const body of bodies) {
      const response = await fetch(`${url}/307`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      expect([await response.text(), response.redirected]).toEqual(['ok', true]);
      await (await globalThis.fetch(`${url}/done`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).text();
      const [first, second, third, byNodeFetch] = received.splice(0);
      expect([first?.path, second?.path, third?.path]).toEqual(['/307', '/308', '/done']);
      for (const sent of [first, second, third]) {
        expect(sent?.bytes.equals(byNodeFetch!.bytes)).toBe(true);
        expect(sent?.bytes.equals(Buffer.from(body, 'utf8'))).toBe(true);
        expect(sent?.length).toBe(String(sent?.bytes.byteLength));
        expect(sent?.length).toBe(byNodeFetch?.length);
      }
    }
    expect(neverFallBack).not.toHaveBeenCalled();
  });

  it('drops credentials on a redirect to another origin, and honours redirect: manual and error, and the limit of 20', async () => {
    const other = await serve((request, _body, response) => response.end(`auth: ${request.headers.authorization ?? 'none'}`));
    const { url } = await serve((request, _body, response) => {
      if (request.url === '/away') response.writeHead(302, { location: `${other.url}/x` }).end();
      else if (request.url === '/here') response.writeHead(302, { location: '/echo' }).end();
      else if (request.url === '/echo') response.end(`auth: ${request.headers.authorization ?? 'none'}`);
      else response.writeHead(302, { location: '/loop' }).end();
    });
    const fetch = createNodeHttpFetch({ fallback: neverFallBack });
    const headers = { authorization: 'Bearer sk-secret' };
    expect(await (await fetch(`${url}/away`, { headers })).text()).toBe('auth: none');
    expect(await (await fetch(`${url}/here`, { headers })).text()).toBe('auth: Bearer sk-secret');
    const manual = await fetch(`${url}/away`, { redirect: 'manual' });
    expect([manual.status, manual.headers.get('location'), manual.redirected]).toEqual([302, `${other.url}/x`, false]);
    await expect(fetch(`${url}/away`, { redirect: 'error' })).rejects.toThrow('fetch failed');
    await expect(fetch(`${url}/loop`)).rejects.toMatchObject({ message: 'fetch failed', cause: { message: 'more than 20 redirects' } });
  });

  it('drops the API-key headers providers send (x-goog-api-key, x-api-key, api-key) on a redirect to another origin, not within one', async () => {
    const keyHeaders = ['x-goog-api-key', 'x-api-key', 'api-key'] as const;
    const echo = (request: IncomingMessage, response: ServerResponse): void => {
      response.end(keyHeaders.map((name) => `${name}=${String(request.headers[name] ?? 'none')}`).join(' '));
    };
    const other = await serve((request, _body, response) => echo(request, response));
    const { url } = await serve((request, _body, response) => {
      if (request.url === '/away') response.writeHead(307, { location: `${other.url}/x` }).end();
      else if (request.url === '/here') response.writeHead(307, { location: '/echo' }).end();
      else echo(request, response);
    });
    const fetch = createNodeHttpFetch({ fallback: neverFallBack });
    const headers = { 'x-goog-api-key': 'AIza-secret', 'x-api-key': 'sk-ant-secret', 'api-key': 'azure-secret' };
    expect(await (await fetch(`${url}/away`, { method: 'POST', body: '{}', headers })).text()).toBe('x-goog-api-key=none x-api-key=none api-key=none');
    expect(await (await fetch(`${url}/here`, { method: 'POST', body: '{}', headers })).text()).toBe('x-goog-api-key=AIza-secret x-api-key=sk-ant-secret api-key=azure-secret');
  });

  it('hands what it does not serve to the fallback: a Request, a form body, a non-HTTP scheme, a header fetch forbids, environment proxies', async () => {
    const answer = new Response('from the fallback');
    const fallback = vi.fn(async () => answer.clone());
    const fetch = createNodeHttpFetch({ fallback });
    const form = new FormData();
    form.set('field', 'value');
    await fetch(new Request('http://127.0.0.1:9/'));
    await fetch('http://127.0.0.1:9/', { method: 'POST', body: form });
    await fetch('data:text/plain,hello');
    await fetch('http://127.0.0.1:9/', { headers: { 'transfer-encoding': 'chunked' } });
    await fetch('http://127.0.0.1:9/', { headers: { host: 'elsewhere.example' } });
    vi.stubEnv('NODE_USE_ENV_PROXY', '1');
    try {
      await createNodeHttpFetch({ fallback })('http://127.0.0.1:9/');
    } finally {
      vi.unstubAllEnvs();
    }
    expect(fallback).toHaveBeenCalledTimes(6);
  });

  it('refuses a URL with credentials in it, as fetch does, without echoing them', async () => {
    const failure = await createNodeHttpFetch({ fallback: neverFallBack })('http://user:hunter2@127.0.0.1:9/').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(String((failure as Error).message)).not.toContain('hunter2');
  });

  it('rejects a header fetch would refuse, as fetch does, without throwing', async () => {
    const fetch = createNodeHttpFetch({ fallback: neverFallBack });
    let pending: Promise<Response> | undefined;
    expect(() => (pending = fetch('http://127.0.0.1:9/', { headers: { 'bad header': 'x' } }))).not.toThrow();
    await expect(pending).rejects.toThrow(TypeError);
  });

  it("rejects a failure to connect as fetch does: TypeError('fetch failed') with the cause", async () => {
    const { url } = await serve((_request, _body, response) => response.end());
    servers.pop()?.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const failure = await createNodeHttpFetch({ fallback: neverFallBack })(url).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(failure).toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
  });

  it("rejects with the signal's reason when aborted before the answer, and closes the connection", async () => {
    let closed: () => void = () => {};
    const gone = new Promise<void>((resolve) => (closed = resolve));
    const { url } = await serve((request) => request.socket.on('close', closed));
    const controller = new AbortController();
    const pending = createNodeHttpFetch({ fallback: neverFallBack })(url, { method: 'POST', body: 'x', signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop now')), 30);
    await expect(pending).rejects.toThrow('stop now');
    await gone;
    const aborted = new AbortController();
    aborted.abort(new Error('already'));
    await expect(createNodeHttpFetch({ fallback: neverFallBack })(url, { signal: aborted.signal })).rejects.toThrow('already');
  });

  it("errors the body with the signal's reason when aborted while it streams", async () => {
    const { url } = await serve((_request, _body, response) => {
      response.writeHead(200);
      response.write('part');
    });
    const controller = new AbortController();
    const response = await createNodeHttpFetch({ fallback: neverFallBack })(url, { signal: controller.signal });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort(new Error('enough'));
    await expect(reader.read()).rejects.toThrow('enough');
  });

  it("errors the body with TypeError('terminated') when the connection drops before the end", async () => {
    const { url } = await serve((_request, _body, response) => {
      response.writeHead(200, { 'content-length': '100' });
      response.write('only part of it');
      setTimeout(() => response.socket?.destroy(), 20);
    });
    const response = await createNodeHttpFetch({ fallback: neverFallBack })(url);
    const failure = await response.text().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect(failure).toMatchObject({ message: 'terminated' });
  });

  it('checks TLS certificates: a self-signed server is refused', async () => {
    const tls = tlsFixture();
    const { url } = await serve((_request, _body, response) => response.end('secret'), tls);
    expect(url.startsWith('https://')).toBe(true);
    const failure = await createNodeHttpFetch({ fallback: neverFallBack })(url).catch((error: unknown) => error);
    expect(failure).toMatchObject({ message: 'fetch failed', cause: { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' } });
  });

  it('serves HTTPS with the CAs the process trusts (NODE_EXTRA_CA_CERTS)', async () => {
    const tls = tlsFixture();
    const { url } = await serve((_request, body, response) => response.end(`over TLS: ${body}`), tls);
    const module = fileURLToPath(new URL('./node-http-fetch.ts', import.meta.url));
    const script = `const { nodeHttpFetch } = await import(${JSON.stringify(module)}); const response = await nodeHttpFetch(${JSON.stringify(url)}, { method: 'POST', body: 'hi' }); console.log(await response.text());`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, NODE_EXTRA_CA_CERTS: tls.certFile }, timeout: 20_000 });
    // It also shows that kept-alive idle connections do not hold the process open: the child exited by itself.
    expect(stdout.trim()).toBe('over TLS: hi');
  });

  it('returns the bytes fetch returns, for any body and any way the server splits it', async () => {
    const { url } = await serve((request, _body, response) => {
      const parts = JSON.parse(decodeURIComponent((request.url ?? '/').slice(1))) as number[][];
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      for (const part of parts) response.write(Buffer.from(part));
      response.end();
    });
    const fetch = createNodeHttpFetch({ fallback: neverFallBack });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 300 }), { maxLength: 6 }), async (parts) => {
        const target = `${url}/${encodeURIComponent(JSON.stringify(parts))}`;
        const ours = new Uint8Array(await (await fetch(target)).arrayBuffer());
        const theirs = new Uint8Array(await (await globalThis.fetch(target)).arrayBuffer());
        expect(ours).toEqual(theirs);
      }),
      { numRuns: 40 },
    );
  });
});

function tlsFixture(): { cert: string; key: string; certFile: string } {
  const certFile = fileURLToPath(new URL('../../test/__fixtures__/tls/loopback-cert.pem', import.meta.url));
  const keyFile = fileURLToPath(new URL('../../test/__fixtures__/tls/loopback-key.pem', import.meta.url));
  return { cert: readFileSync(certFile, 'utf8'), key: readFileSync(keyFile, 'utf8'), certFile };
}
