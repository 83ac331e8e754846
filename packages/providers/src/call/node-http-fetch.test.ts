import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompressSync, gzipSync } from 'node:zlib';
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
    const response = await fetch(`${url}/v1/chat?x=1`, { method: 'POST', headers: [['Content-Type', 'application/json'], ['X-Many', 'a'], ['x-many', 'b']], body: '{"q":"é"}' });
    expect(seen.method).toBe('POST');
    expect(seen.body).toBe('{"q":"é"}');
    expect(seen.headers).toMatchObject({ 'content-type': 'application/json', 'x-many': 'a, b', accept: '*/*', 'content-length': String(Buffer.byteLength('{"q":"é"}')) });
    expect(response.status).toBe(201);
    expect(response.statusText).toBe('Made');
    expect(response.ok).toBe(true);
    expect(response.url).toBe(`${url}/v1/chat?x=1`);
    expect(response.headers.get('x-trace')).toBe('abc');
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.json()).toEqual({ ok: true });
    expect(neverFallBack).not.toHaveBeenCalled();
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

  it('sends a redirected request again through the fallback, which follows it', async () => {
    const { url } = await serve((request, body, response) => {
      if (request.url === '/old') {
        response.writeHead(307, { location: '/new' });
        response.end();
      } else response.end(`moved: ${request.method} ${body}`);
    });
    const fallback = vi.fn((input: Parameters<typeof fetch>[0], init?: RequestInit) => globalThis.fetch(input, init));
    const response = await createNodeHttpFetch({ fallback })(`${url}/old`, { method: 'POST', body: 'payload' });
    expect(await response.text()).toBe('moved: POST payload');
    expect(response.redirected).toBe(true);
    expect(fallback).toHaveBeenCalledTimes(1);
  });

  it('hands what it does not serve to the fallback: a Request, a form body, a non-HTTP scheme, environment proxies', async () => {
    const answer = new Response('from the fallback');
    const fallback = vi.fn(async () => answer.clone());
    const fetch = createNodeHttpFetch({ fallback });
    const form = new FormData();
    form.set('field', 'value');
    await fetch(new Request('http://127.0.0.1:9/'));
    await fetch('http://127.0.0.1:9/', { method: 'POST', body: form });
    await fetch('data:text/plain,hello');
    vi.stubEnv('NODE_USE_ENV_PROXY', '1');
    try {
      await createNodeHttpFetch({ fallback })('http://127.0.0.1:9/');
    } finally {
      vi.unstubAllEnvs();
    }
    expect(fallback).toHaveBeenCalledTimes(4);
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
