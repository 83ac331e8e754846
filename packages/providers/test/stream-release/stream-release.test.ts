/**
 * An attempt that fails mid-stream lets go of its response: a server that
 * sends an error event and then goes on streaming (a generation that is
 * still being billed) sees its response closed, for every provider, instead
 * of being read to its end. The server here never ends the response by
 * itself, so only the client can close it.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/anthropic/anthropic-provider.ts';
import { createGoogleProvider } from '../../src/google/google-provider.ts';
import { createOllamaProvider } from '../../src/ollama/ollama-provider.ts';
import { createOpenAIProvider } from '../../src/openai/openai-provider.ts';

/** Resolves when the current request's response is closed by the client. */
let closed: Promise<void> = Promise.resolve();
let server: Server;
let url: string;

/** Writes `first`, then `filler` every 50 ms until the client closes the response. */
function streamForever(response: ServerResponse, contentType: string, first: string, filler: string): void {
  response.writeHead(200, { 'content-type': contentType });
  response.write(first);
  const timer = setInterval(() => response.write(filler), 50);
  response.on('close', () => clearInterval(timer));
}

beforeAll(async () => {
  server = createServer((request, response) => {
    closed = new Promise((resolve) => response.on('close', () => resolve()));
    request.resume();
    const path = request.url ?? '';
    if (path.includes('/api/chat')) return streamForever(response, 'application/x-ndjson', `${JSON.stringify({ message: { content: 'Hel' }, done: false })}\n${JSON.stringify({ error: 'boom' })}\n`, `${JSON.stringify({ message: { content: '.' }, done: false })}\n`);
    if (path.includes('Generate')) return streamForever(response, 'text/event-stream', 'data: {"candidates":[{"content":{"parts":[{"text":"Hel"}]}}]}\r\n\r\ndata: {"error":{"code":500,"message":"boom","status":"INTERNAL"}}\r\n\r\n', 'data: {"candidates":[{"content":{"parts":[{"text":"."}]}}]}\r\n\r\n');
    if (path.includes('messages')) return streamForever(response, 'text/event-stream', 'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","content":[],"model":"c","usage":{"input_tokens":1,"output_tokens":1}}}\n\nevent: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n', 'event: ping\ndata: {"type":"ping"}\n\n');
    return streamForever(response, 'text/event-stream', 'data: {"choices":[{"delta":{"content":"Hel"}}]}\n\ndata: {"error":{"message":"boom","type":"server_error"}}\n\n', 'data: {"choices":[{"delta":{"content":"."}}]}\n\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const retry = { maxRetries: 0 };
const models = {
  openai: () => createOpenAIProvider({ apiKey: 'sk-test-0123456789', baseURL: `${url}/v1`, retry }).languageModel('g'),
  anthropic: () => createAnthropicProvider({ apiKey: 'sk-ant-test-0123456789', baseURL: url, retry }).languageModel('c'),
  google: () => createGoogleProvider({ apiKey: 'AIza-test-0123456789', baseURL: url, retry }).languageModel('g'),
  ollama: () => createOllamaProvider({ baseURL: url, retry }).languageModel('l'),
};

describe('a failed streamed attempt', () => {
  it.each(Object.keys(models) as (keyof typeof models)[])('closes the response it no longer reads (%s)', async (name) => {
    const failure = await models[name]()
      .generate({ prompt: 'hi', onText: () => {} })
      .catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'PROVIDER_SERVER' });
    // Without the close the server would stream forever: the test's timeout is the failure.
    await closed;
  }, 10_000);
});
