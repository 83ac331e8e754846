/**
 * Response bodies a server compresses though the pack asked for nothing
 * (no `accept-encoding`): the program gets the text, as from Node's `fetch`,
 * and `maxBytes` bounds the decoded text. A real loopback server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync, zstdCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import { createHttpTools } from './http-tools.ts';

const TEXT = 'héllo, compressed world';
/** path → [content-encoding, body]. */
const BODIES: Record<string, [string, Buffer]> = {
  '/gzip': ['gzip', gzipSync(TEXT)],
  '/x-gzip': ['x-gzip', gzipSync(TEXT)],
  '/deflate': ['deflate', deflateSync(TEXT)],
  '/br': ['br', brotliCompressSync(TEXT)],
  '/zstd': ['zstd', zstdCompressSync(TEXT)],
  // Applied gzip first, then br: undone br first.
  '/gzip-br': ['GZIP, br', brotliCompressSync(gzipSync(TEXT))],
  '/unknown': ['compress', Buffer.from('as sent')],
  '/corrupt': ['gzip', Buffer.from('not gzip at all')],
  '/bomb': ['gzip', gzipSync(Buffer.alloc(10 * 1024 * 1024, 'a'))],
  '/too-many': ['gzip, gzip, gzip, gzip, gzip, gzip', Buffer.from('x')],
};

let server: Server;
let origin: string;
/** Connections the server has open. */
let open = 0;
const acceptEncodings: (string | undefined)[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    acceptEncodings.push(request.headers['accept-encoding']);
    const { pathname } = new URL(request.url ?? '/', 'http://x');
    if (pathname === '/no-content') return void response.writeHead(204, { 'content-encoding': 'gzip' }).end();
    const [encoding, body] = BODIES[pathname] ?? ['identity', Buffer.from('?')];
    response.writeHead(200, { 'content-encoding': encoding, 'content-type': 'text/plain; charset=utf-8' }).end(request.method === 'HEAD' ? undefined : body);
  });
  server.on('connection', (socket) => {
    open += 1;
    socket.on('close', () => (open -= 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const host = () => hostFor([createHttpTools({ maxBytes: 1_000 })], { allow: ['tool.http.*'], grants: ['net:read:127.0.0.1'] });
const fetchBody = async (path: string, options: Record<string, string> = {}) => ((await host().call('tool.http.Fetch', [`${origin}${path}`, options])) as { body: string; headers: Record<string, string> });

describe('tool.http.Fetch with a compressing server', () => {
  it.each(['/gzip', '/x-gzip', '/deflate', '/br', '/zstd', '/gzip-br'])('%s: the body is the decoded text, the headers as sent', async (path) => {
    const result = await fetchBody(path);
    expect(result.body).toBe(TEXT);
    expect(result.headers['content-encoding']).toBe(BODIES[path]![0]);
  });

  it('still asks for no encoding, and a coding it does not know leaves the body as sent', async () => {
    acceptEncodings.length = 0;
    expect((await fetchBody('/unknown')).body).toBe('as sent');
    expect(acceptEncodings).toEqual([undefined]);
  });

  it('a HEAD and a 204 that name an encoding have an empty body', async () => {
    expect((await fetchBody('/gzip', { method: 'HEAD' })).body).toBe('');
    expect((await fetchBody('/no-content')).body).toBe('');
  });

  it('maxBytes bounds the decoded body: a 10 KiB gzip of 10 MiB stops at the limit, and its connection is closed', async () => {
    const error = await host().fail('tool.http.Fetch', [`${origin}/bomb`]);
    expect([error.code, error.message]).toEqual(['HTTP_TOO_LARGE', 'tool.http.Fetch: response body is larger than 1000 bytes (pack http)']);
    await expect.poll(() => open).toBe(0);
  });

  it('a body that does not decode is HTTP_FAILED, and more than five codings too', async () => {
    const corrupt = await host().fail('tool.http.Fetch', [`${origin}/corrupt`]);
    expect([corrupt.code, corrupt.message]).toEqual(['HTTP_FAILED', `tool.http.Fetch: reading the response of ${origin}/corrupt failed: incorrect header check (pack http)`]);
    const many = await host().fail('tool.http.Fetch', [`${origin}/too-many`]);
    expect([many.code, many.message]).toEqual(['HTTP_FAILED', "tool.http.Fetch: the response's content-encoding lists 6 codings; at most 5 are decoded (pack http)"]);
    await expect.poll(() => open).toBe(0);
  });
});
