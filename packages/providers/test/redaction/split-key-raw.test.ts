/**
 * A model that echoes the key streams it token by token, so each raw chunk
 * holds a piece of it. `result.text` and the deltas were scrubbed (the stream
 * redactor holds back a possible start of a key), but `raw` was scrubbed
 * chunk by chunk, and no chunk held the whole key: every piece stayed, and
 * the chunks' texts joined gave the key back. The same for a credential
 * pattern (`Bearer …`) the model writes: only the chunk holding `Bearer ` and
 * the token's start was scrubbed. Each provider's stream, from a loopback
 * server in its own wire format.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/anthropic/anthropic-provider.ts';
import { createGoogleProvider } from '../../src/google/google-provider.ts';
import type { LanguageModel } from '../../src/model/language-model.ts';
import { createOllamaProvider } from '../../src/ollama/ollama-provider.ts';
import { createOpenAICompatibleProvider } from '../../src/openai/openai-compatible-provider.ts';
import { createOpenAIProvider } from '../../src/openai/openai-provider.ts';
import { startTestServer, type ScriptedResponse, type TestServer } from '../support/test-server.ts';

const KEY = 'sk-split-Q7xv2Lm9Pz4Rt8Wn';
/** The reply, cut as a tokenizer would: the key in six pieces, none of them its start or end alone. */
const PIECES = ['Your key is ', 'sk-', 'split', '-Q7xv', '2Lm9', 'Pz4Rt', '8Wn', ', keep it safe.'];
const REPLY = PIECES.join('');
/** A reply quoting a Bearer token, cut inside the word `Bearer` and inside the token. */
const TOKEN_PIECES = ['Call it with -H "Authorization: Bea', 'rer eyJh', 'bGciOi', 'JIUzI1', 'NiJ9.t', 'ok3nX', '" and wait.'];
const TOKEN = TOKEN_PIECES.slice(1, -1).join('').slice('rer '.length);
const retry = { maxRetries: 0 };

const sse = (events: unknown[], done = false): ScriptedResponse => ({
  headers: { 'content-type': 'text/event-stream' },
  chunks: [...events.map((event) => `data: ${JSON.stringify(event)}\n\n`), ...(done ? ['data: [DONE]\n\n'] : [])],
});

/** Each provider's stream of a reply in `PIECES`, and how to read the text of each of its raw items. */
const casesFor = (PIECES: readonly string[]): { name: string; answer: ScriptedResponse; model: (url: string) => LanguageModel; texts: (raw: any) => string[] }[] => [
  {
    name: 'OpenAI Chat Completions (raw.chunks)',
    answer: sse([
      ...PIECES.map((content) => ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'gpt-4.1', choices: [{ index: 0, delta: { content }, finish_reason: null }] })),
      { id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'gpt-4.1', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 } },
    ], true),
    model: (url) => createOpenAIProvider({ apiKey: KEY, baseURL: `${url}/v1`, retry }).languageModel('gpt-4.1'),
    texts: (raw) => raw.chunks.map((chunk: any) => chunk.choices[0]?.delta?.content ?? ''),
  },
  {
    name: 'an OpenAI-compatible server (raw.chunks)',
    answer: sse([
      ...PIECES.map((content) => ({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })),
      { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] },
    ], true),
    model: (url) => createOpenAICompatibleProvider({ name: 'vllm', apiKey: KEY, baseURL: `${url}/v1`, retry }).languageModel('m'),
    texts: (raw) => raw.chunks.map((chunk: any) => chunk.choices[0]?.delta?.content ?? ''),
  },
  {
    name: 'OpenAI Responses (raw.events)',
    answer: sse([
      ...PIECES.map((delta) => ({ type: 'response.output_text.delta', item_id: 'msg_1', output_index: 0, content_index: 0, delta })),
      { type: 'response.completed', response: { id: 'resp_1', status: 'completed', output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: PIECES.join('') }] }], usage: { input_tokens: 5, output_tokens: 9, total_tokens: 14 } } },
    ]),
    model: (url) => createOpenAIProvider({ apiKey: KEY, baseURL: `${url}/v1`, api: 'responses', retry }).languageModel('gpt-4.1'),
    texts: (raw) => raw.events.filter((event: any) => event.type === 'response.output_text.delta').map((event: any) => event.delta),
  },
  {
    name: 'Anthropic Messages (raw.events, a ping among them)',
    answer: {
      headers: { 'content-type': 'text/event-stream' },
      chunks: [
        { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], model: 'claude-sonnet-4-5', stop_reason: null, usage: { input_tokens: 5, output_tokens: 1 } } },
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        ...PIECES.flatMap((text, index) => [{ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }, ...(index === 3 ? [{ type: 'ping' }] : [])]),
        { type: 'content_block_stop', index: 0 },
        { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 9 } },
        { type: 'message_stop' },
      ].map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`),
    },
    model: (url) => createAnthropicProvider({ apiKey: KEY, baseURL: url, retry }).languageModel('claude-sonnet-4-5'),
    texts: (raw) => raw.events.filter((event: any) => event.type === 'content_block_delta').map((event: any) => event.delta.text),
  },
  {
    name: 'Gemini (raw.chunks)',
    answer: {
      headers: { 'content-type': 'text/event-stream' },
      chunks: PIECES.map((text, index) => `data: ${JSON.stringify({
        candidates: [{ content: { parts: [{ text }], role: 'model' }, index: 0, ...(index === PIECES.length - 1 ? { finishReason: 'STOP' } : {}) }],
        usageMetadata: { promptTokenCount: 5, ...(index === PIECES.length - 1 ? { candidatesTokenCount: 9, totalTokenCount: 14 } : { totalTokenCount: 5 }) },
        modelVersion: 'gemini-2.5-flash',
      })}\r\n\r\n`),
    },
    model: (url) => createGoogleProvider({ apiKey: KEY, baseURL: url, retry }).languageModel('gemini-2.5-flash'),
    texts: (raw) => raw.chunks.map((chunk: any) => chunk.candidates[0].content.parts[0].text),
  },
  {
    name: 'Ollama (raw.lines)',
    answer: {
      headers: { 'content-type': 'application/x-ndjson' },
      chunks: [
        ...PIECES.map((content) => ({ model: 'llama3.2', created_at: '2026-11-28T00:00:00Z', message: { role: 'assistant', content }, done: false })),
        { model: 'llama3.2', created_at: '2026-11-28T00:00:01Z', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 5, eval_count: 9 },
      ].map((line) => `${JSON.stringify(line)}\n`),
    },
    model: (url) => createOllamaProvider({ apiKey: KEY, baseURL: url, retry }).languageModel('llama3.2'),
    texts: (raw) => raw.lines.map((line: any) => line.message?.content ?? ''),
  },
];

describe('a key split across the chunks of a streamed reply', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  for (const testCase of casesFor(PIECES)) {
    it(`${testCase.name}: is scrubbed from raw, no piece of it left in any chunk`, async () => {
      server = await startTestServer([testCase.answer]);
      const deltas: string[] = [];
      const result = await testCase.model(server.url).generate({ prompt: 'repeat my key', onText: (delta) => deltas.push(delta) });
      expect(result.text).toBe('Your key is [REDACTED], keep it safe.');
      expect(deltas.join('')).toBe(result.text);
      // The chunks' texts, joined, read as the scrubbed text: the piece where the key starts is [REDACTED], the rest gone.
      expect(testCase.texts(result.raw).join('')).toBe(result.text);
      const everything = JSON.stringify(result);
      for (const piece of PIECES.slice(1, -1)) expect(everything).not.toContain(piece);
    });
  }
});

describe('a Bearer token split across the chunks of a streamed reply', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  for (const testCase of casesFor(TOKEN_PIECES)) {
    it(`${testCase.name}: is scrubbed from raw, no piece of it left in any chunk`, async () => {
      server = await startTestServer([testCase.answer]);
      const result = await testCase.model(server.url).generate({ prompt: 'how do I call it?', onText: () => {} });
      // The text keeps it (a program may quote a header); raw, a copy of the wire, loses it as one string would.
      expect(result.text).toBe(TOKEN_PIECES.join(''));
      expect(testCase.texts(result.raw).join('')).toBe('Call it with -H "Authorization: Bearer [REDACTED]" and wait.');
      const raw = JSON.stringify(result.raw);
      for (const piece of TOKEN_PIECES.slice(2, -1)) expect(raw).not.toContain(piece);
      expect(raw).not.toContain(TOKEN);
    });
  }
});
