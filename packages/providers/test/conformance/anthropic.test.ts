import { describe, expect, it } from 'vitest';
import { createAnthropicProvider } from '../../src/anthropic/anthropic-provider.ts';
import { jsonFixture, sseChunks } from '../support/fixtures.ts';
import { startTestServer } from '../support/test-server.ts';
import { runProviderConformance } from './run-provider-conformance.ts';

const KEY = 'sk-ant-api03-test-0123456789abcdef';
const MODEL = 'claude-opus-4-7';

runProviderConformance({
  provider: 'anthropic',
  modelId: MODEL,
  apiKey: KEY,
  model: ({ baseURL, prices, ...rest }) =>
    createAnthropicProvider({ apiKey: KEY, baseURL, ...rest }).languageModel(MODEL, prices ? { prices } : {}),
  path: /^\/v1\/messages$/,
  streamPath: /^\/v1\/messages$/,
  sentKey: (request) => (request.headers['x-api-key'] as string | undefined) ?? String(request.headers['authorization']).replace(/^Bearer /, ''),
  success: { body: jsonFixture('anthropic/message.json') },
  expected: { text: 'Hi! My name is Claude.', usage: { inputTokens: 3895, outputTokens: 503, cachedInputTokens: 1800, cacheWriteInputTokens: 0 }, finishReason: 'stop' },
  stream: { headers: { 'content-type': 'text/event-stream' }, chunks: sseChunks('anthropic/message-stream.sse') },
  expectedStream: { text: 'Hello!', usage: { inputTokens: 25, outputTokens: 15 } },
  error: (status, message, headers) => ({
    status,
    ...(headers ? { headers } : {}),
    body: { type: 'error', error: { type: status === 401 ? 'authentication_error' : 'api_error', message } },
  }),
  authFailure: { status: 401, body: jsonFixture('anthropic/error-401.json') },
  rateLimited: { status: 429, body: jsonFixture('anthropic/error-429.json') },
  serverError: { status: 500, body: jsonFixture('anthropic/error-500.json') },
  wrongShape: { body: { id: 'msg_1', type: 'message' } },
});

describe('anthropic streamed requests answered without a stream', () => {
  const model = (url: string) => createAnthropicProvider({ apiKey: KEY, baseURL: url, retry: { maxRetries: 0 } }).languageModel(MODEL);

  it('reads one JSON message (a server that ignores stream: true) as the reply, delivered once, with a warning', async () => {
    const server = await startTestServer([{ body: jsonFixture('anthropic/message.json') }]);
    try {
      const deltas: string[] = [];
      const result = await model(server.url).generate({ prompt: 'x', onText: (delta) => deltas.push(delta) });
      expect(result).toMatchObject({ text: 'Hi! My name is Claude.', finishReason: 'stop', usage: { inputTokens: 3895, outputTokens: 503 } });
      expect(deltas).toEqual(['Hi! My name is Claude.']);
      expect(result.warnings).toContainEqual(expect.stringContaining('the server answered without streaming (content-type application/json'));
      expect(server.requests[0]?.json).toMatchObject({ stream: true });
    } finally {
      await server.close();
    }
  });

  it('says a page answered it, naming the status and content type', async () => {
    const server = await startTestServer([{ headers: { 'content-type': 'text/html' }, body: '<html><body>a proxy page</body></html>' }]);
    try {
      await expect(model(server.url).generate({ prompt: 'x', onText: () => {} })).rejects.toMatchObject({
        code: 'PROVIDER_BAD_RESPONSE',
        message: expect.stringContaining("the stream ended before message_stop (no events: the answer was HTTP 200 with content-type text/html, not text/event-stream; check that the base URL points at a Messages API, not at a web page, a proxy or another server, and that the server streams)"),
      });
    } finally {
      await server.close();
    }
  });
});

describe('anthropic request body', () => {
  it('sends system, settings and a default max_tokens; warns about seed', async () => {
    const server = await startTestServer([{ body: jsonFixture('anthropic/message.json') }]);
    try {
      const model = createAnthropicProvider({ apiKey: KEY, baseURL: server.url }).languageModel(MODEL);
      const result = await model.generate({
        system: 'rules',
        prompt: 'envelope',
        settings: { temperature: 0.1, topP: 0.8, topK: 5, stopSequences: ['<<<END>>>'], seed: 1 },
      });
      expect(server.requests[0]?.json).toEqual({
        model: MODEL,
        max_tokens: 4096,
        system: 'rules',
        messages: [{ role: 'user', content: 'envelope' }],
        temperature: 0.1,
        top_p: 0.8,
        top_k: 5,
        stop_sequences: ['<<<END>>>'],
      });
      expect(result.warnings).toEqual(['seed is not supported by the Anthropic Messages API; ignored']);
    } finally {
      await server.close();
    }
  });

  it('treats 529 overloaded as retryable', async () => {
    const server = await startTestServer([
      { status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } },
      { body: jsonFixture('anthropic/message.json') },
    ]);
    try {
      const model = createAnthropicProvider({ apiKey: KEY, baseURL: server.url, retry: { sleep: async () => {} } }).languageModel(MODEL);
      expect((await model.generate({ prompt: 'x' })).attempts).toBe(2);
    } finally {
      await server.close();
    }
  });
});

describe('anthropic error events mid-stream', () => {
  const start = `event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', content: [], model: MODEL, stop_reason: null, stop_sequence: null, usage: { input_tokens: 5, output_tokens: 1 } } })}\n\n`;
  const errorEvent = (type: string, message: string) => `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type, message } })}\n\n`;
  it.each([
    ['overloaded', 'overloaded_error', 'PROVIDER_SERVER', 3],
    ['a rate limit', 'rate_limit_error', 'PROVIDER_RATE_LIMIT', 3],
    ['an invalid request', 'invalid_request_error', 'PROVIDER_BAD_REQUEST', 1],
    ['a rejected key', 'authentication_error', 'PROVIDER_AUTH', 1],
    ['a timeout', 'timeout_error', 'PROVIDER_SERVER', 3],
    ['a request too large', 'request_too_large', 'PROVIDER_BAD_REQUEST', 1],
    ['a billing problem', 'billing_error', 'PROVIDER_BAD_REQUEST', 1],
    ['an unknown model', 'not_found_error', 'PROVIDER_MODEL_NOT_FOUND', 1],
  ])('codes an error event as the same error in an HTTP status would be: %s', async (_name, type, code, requests) => {
    const server = await startTestServer([{ headers: { 'content-type': 'text/event-stream' }, chunks: [start, errorEvent(type, 'it went wrong')] }]);
    try {
      const model = createAnthropicProvider({ apiKey: KEY, baseURL: server.url, retry: { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 1 } }).languageModel(MODEL);
      await expect(model.generate({ prompt: 'x', onText: () => {} })).rejects.toMatchObject({ code });
      expect(server.requests).toHaveLength(requests);
    } finally {
      await server.close();
    }
  });
});
