/**
 * API keys never reach a record, an event or a result: a real provider over
 * real loopback HTTP, whose server echoes the key back in a 401 body.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAICompatibleProvider } from '@askloop/providers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import type { LoopEvent } from '../src/events/loop-event.ts';
import { definePlugin } from '../src/plugin/plugin.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';

const KEY = 'sk-test-0123456789abcdefSECRET';
let server: Server;
let baseURL = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    response.writeHead(401, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: `invalid key ${request.headers.authorization ?? ''}`, type: 'invalid_request_error' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('keeps the key out of records, events and the result when the provider fails', async () => {
  const events: LoopEvent[] = [];
  const store = createMemoryTranscriptStore();
  const provider = createOpenAICompatibleProvider({ name: 'local', baseURL, apiKey: KEY, retry: { maxRetries: 0 } });
  const loop = createAskLoop({ plugins: [definePlugin({ name: 'local', specificationVersion: 'v1', providers: { local: provider } })], store, onEvent: (event) => events.push(event) });
  const result = await loop.run({ agent: { name: 'a', model: 'local:some-model' }, task: 'x' });
  expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_PROVIDER' });
  const everything = JSON.stringify({ result, events, turns: await store.listTurns(result.sid), sessions: await store.listSessions() });
  expect(everything).toContain('PROVIDER_AUTH');
  expect(everything).not.toContain('0123456789abcdefSECRET');
  await loop.close();
});
