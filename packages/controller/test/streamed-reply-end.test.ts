/**
 * A model streaming token by token over real loopback HTTP through the
 * OpenAI-compatible provider: its finish, usage and `[DONE]` come a few
 * milliseconds after the envelope's END line, as from a real server. The turn
 * lets the stream end by itself, so the connection is reused and the turn
 * records the provider's usage, not an estimate.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSandboxPool } from '@askloop/interpreter';
import { createOpenAICompatibleProvider } from '@askloop/providers';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { definePlugin } from '../src/plugin/plugin.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope } from './test-plugin.ts';

const REPLY = envelope('command\n  emit "<<<LOOP:DONE>>> streamed"\nendcommand');
const event = (payload: Record<string, unknown>): string => `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', ...payload })}\n\n`;
/** The reply a word an event, then the finish, the usage and `[DONE]`. */
const EVENTS = [
  ...(REPLY.match(/\s*\S+\s*/g) ?? []).map((content) => event({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })),
  event({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
  event({ choices: [], usage: { prompt_tokens: 321, completion_tokens: 45, total_tokens: 366 } }),
  'data: [DONE]\n\n',
];

let server: Server;
let connections = 0;
let baseURL = '';
const pool = createSandboxPool({ workers: 1 });

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', async () => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      // Each event 2 ms after the one before; the body's end right after `[DONE]` (a drain still reading when the next
      // turn's request starts would make the pool open a second connection).
      for (const [index, text] of EVENTS.entries()) {
        if (index > 0) await new Promise((resolve) => setTimeout(resolve, 2));
        response.write(text);
      }
      response.end();
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await pool.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

it('lets a reply streamed token by token end by itself after END: one connection, the provider\'s usage', async () => {
  const store = createMemoryTranscriptStore();
  const provider = createOpenAICompatibleProvider({ name: 'local', baseURL });
  // A grace no pause of this process (the server's writes and the client's reads share it) can outlast.
  const loop = createAskLoop({ plugins: [definePlugin({ name: 'local', specificationVersion: 'v1', providers: { local: provider } })], store, pool, endGraceMs: 60_000 });
  try {
    const replies = [];
    for (let index = 0; index < 5; index++) {
      const result = await loop.run({ agent: { name: 'a', model: 'local:m' }, task: 'x' });
      expect(result).toMatchObject({ status: 'DONE', result: 'streamed' });
      replies.push((await store.listTurns(result.sid))[0]?.reply);
    }
    for (const reply of replies) expect(reply).toMatchObject({ finishReason: 'stop', inputTokens: 321, outputTokens: 45 });
    // One, or two if a turn's request started while the last drain was still reading (aborting at END made 10).
    expect(connections).toBeLessThanOrEqual(2);
  } finally {
    await loop.close();
  }
});
