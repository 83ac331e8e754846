/**
 * Every `content-encoding` `nodeHttpFetch` decodes, zstd included: the
 * decoders come from a namespace import of `node:zlib` (an old Node must be
 * able to link the bundle, to be told which Node it needs), so each one is
 * looked up where it is used.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync, zstdCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeHttpFetch } from './node-http-fetch.ts';

const TEXT = 'a compressed reply '.repeat(200);
const ENCODERS: Record<string, (text: string) => Buffer> = { gzip: gzipSync, 'x-gzip': gzipSync, deflate: deflateSync, br: brotliCompressSync, zstd: zstdCompressSync };

let server: Server;
let url = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    const encoding = request.url!.slice(1);
    response.writeHead(200, { 'content-encoding': encoding });
    response.end(ENCODERS[encoding]!(TEXT));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('a compressed body', () => {
  const fetch = createNodeHttpFetch({ fallback: () => Promise.reject(new Error('the fallback was used')) });

  it.each(Object.keys(ENCODERS))('is decoded from %s, as fetch does', async (encoding) => {
    expect(await (await fetch(`${url}/${encoding}`)).text()).toBe(TEXT);
  });
});
