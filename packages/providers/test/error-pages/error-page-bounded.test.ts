/**
 * An error answer of megabytes (a proxy's page, a misbehaving server) is read
 * at most 64 KiB and quoted at most 2,000 characters. The SDKs read an error
 * response's body whole into their message: a 502 page of 2.6 MB made a 2.6 MB
 * message (5.2 MB as JSON with its cause), saved with the turn, sent in events
 * and printed on the terminal. The server here streams the page as it is read
 * and counts what it wrote before the client hung up.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/anthropic/anthropic-provider.ts';
import { createOpenAIProvider } from '../../src/openai/openai-provider.ts';

const KEY = 'sk-test-error-page-0123456789abcdef';
/** What the page would be in all, were it read to the end. */
const PAGE_BYTES = 16 * 1024 * 1024;
const PIECE = Buffer.from('<p>Bad gateway: the upstream did not answer. </p>\n'.repeat(1_300));
const retry = { maxRetries: 0 };

let server: Server;
let url: string;
/** Bytes each answer wrote before the client closed it (or all of it). */
const written: number[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', async () => {
      response.writeHead(502, { 'content-type': 'text/html' });
      // The key in the page too (a proxy echoing the request), where a cut could fall.
      response.write(`<html><body><p>request with key ${KEY}</p>`);
      let sent = 0;
      while (sent < PAGE_BYTES && !response.destroyed) {
        sent += PIECE.length;
        if (!response.write(PIECE)) await Promise.race([once(response, 'drain'), once(response, 'close')]);
      }
      written.push(sent);
      if (!response.destroyed) response.end('</body></html>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('an error page of megabytes', () => {
  it.each([
    ['OpenAI', () => createOpenAIProvider({ apiKey: KEY, baseURL: `${url}/v1`, retry }).languageModel('gpt-4.1-mini')],
    ['Anthropic', () => createAnthropicProvider({ apiKey: KEY, baseURL: url, retry }).languageModel('claude-sonnet-4-5')],
  ])('%s: read at most 64 KiB, quoted at most 2,000 characters, the key still redacted', async (_label, model) => {
    const before = written.length;
    const error = (await model().generate({ system: 's', prompt: 'p' }).then(
      () => expect.unreachable('the call should fail'),
      (failure: unknown) => failure,
    )) as Error & { code?: string; status?: number };
    expect(error).toMatchObject({ code: 'PROVIDER_SERVER', status: 502 });
    await expect.poll(() => written.length).toBe(before + 1);
    // Socket buffers on both sides hold a few MiB more than the client read.
    expect(written.at(-1)).toBeLessThan(PAGE_BYTES / 2);
    expect(error.message.length).toBeLessThan(2_600);
    expect(error.message).toMatch(/… \(\d+ more characters of the answer\)/);
    const json = JSON.stringify(error);
    expect(json.length).toBeLessThan(12_000);
    expect(json).not.toContain(KEY);
    expect(error.message).toContain('[REDACTED]');
  });
});
