import { describe, expect, it, vi } from 'vitest';
import { createOllamaProvider } from '../../src/ollama/ollama-provider.ts';
import { jsonFixture, ndjsonChunks } from '../support/fixtures.ts';
import { startTestServer } from '../support/test-server.ts';
import { runProviderConformance } from './run-provider-conformance.ts';

const KEY = 'ollama-test-key-0123456789abcdef';
const MODEL = 'llama3.2';

runProviderConformance({
  provider: 'ollama',
  modelId: MODEL,
  apiKey: KEY,
  model: ({ baseURL, prices, ...rest }) =>
    createOllamaProvider({ apiKey: KEY, baseURL, ...rest }).languageModel(MODEL, prices ? { prices } : {}),
  path: /^\/api\/chat$/,
  streamPath: /^\/api\/chat$/,
  sentKey: (request) => String(request.headers['authorization']).replace(/^Bearer /, ''),
  success: { body: jsonFixture('ollama/chat.json') },
  expected: { text: 'Hello! How are you today?', usage: { inputTokens: 26, outputTokens: 298 }, finishReason: 'stop' },
  stream: { headers: { 'content-type': 'application/x-ndjson' }, chunks: ndjsonChunks('ollama/chat-stream.ndjson') },
  expectedStream: { text: 'Hello! How are you today?', usage: { inputTokens: 26, outputTokens: 282 } },
  error: (status, message, headers) => ({ status, ...(headers ? { headers } : {}), body: { error: message } }),
  authFailure: { status: 401, body: { error: 'unauthorized' } },
  rateLimited: { status: 429, body: { error: 'too many requests' } },
  serverError: { status: 500, body: jsonFixture('ollama/error-500.json') },
  wrongShape: { body: { model: MODEL, done: true } },
});

describe('ollama request body', () => {
  it('sends settings under options with Ollama names', async () => {
    const server = await startTestServer([{ body: jsonFixture('ollama/chat.json') }]);
    try {
      const model = createOllamaProvider({ baseURL: server.url, keepAlive: '5m' }).languageModel(MODEL);
      await model.generate({ system: 'rules', prompt: 'envelope', settings: { temperature: 0, topP: 0.5, topK: 4, maxOutputTokens: 99, stopSequences: ['END'], seed: 3 } });
      expect(server.requests[0]?.json).toMatchObject({
        model: MODEL,
        stream: false,
        keep_alive: '5m',
        messages: [{ role: 'system', content: 'rules' }, { role: 'user', content: 'envelope' }],
        options: { temperature: 0, top_p: 0.5, top_k: 4, num_predict: 99, stop: ['END'], seed: 3 },
      });
      expect(server.requests[0]?.headers['authorization']).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it('reads an error body that is not JSON (a proxy page) without writing to standard output', async () => {
    const page = '<html><body><h1>502 Bad Gateway</h1></body></html>';
    const server = await startTestServer([{ status: 502, headers: { 'content-type': 'text/html' }, body: page }]);
    const logged = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const failure = createOllamaProvider({ baseURL: server.url, retry: { maxRetries: 0 } }).languageModel(MODEL).generate({ prompt: 'x' });
      await expect(failure).rejects.toMatchObject({ code: 'PROVIDER_SERVER', status: 502 });
      await expect(failure).rejects.toThrow(/502 Bad Gateway/);
      // The ollama client logs "Getting text from response" for a body that is not JSON; askloop --json needs stdout clean.
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
      await server.close();
    }
  });

  it('reads a JSON error body it cannot use (broken JSON, an error object) by its text, without writing to standard output', async () => {
    // Before: '{broken' logged "Failed to parse error response as JSON" on standard output, and an error object
    // (a gateway in front of Ollama) made the message "[object Object]".
    const server = await startTestServer([
      { status: 500, headers: { 'content-type': 'application/json' }, body: '{broken' },
      { status: 429, body: { error: { message: 'quota exceeded for this key', type: 'rate_limit_error' } } },
    ]);
    const logged = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const model = createOllamaProvider({ baseURL: server.url, retry: { maxRetries: 0 } }).languageModel(MODEL);
      await expect(model.generate({ prompt: 'x' })).rejects.toMatchObject({ code: 'PROVIDER_SERVER', status: 500, message: expect.stringContaining('HTTP 500: {broken') });
      await expect(model.generate({ prompt: 'x' })).rejects.toMatchObject({ code: 'PROVIDER_RATE_LIMIT', status: 429, message: expect.stringContaining('HTTP 429: quota exceeded for this key') });
      expect(logged).not.toHaveBeenCalled();
    } finally {
      logged.mockRestore();
      await server.close();
    }
  });

  it('reports an unknown model (404) as PROVIDER_MODEL_NOT_FOUND', async () => {
    const server = await startTestServer([{ status: 404, body: jsonFixture('ollama/error-404.json') }]);
    try {
      const failure = createOllamaProvider({ baseURL: server.url }).languageModel(MODEL).generate({ prompt: 'x' });
      await expect(failure).rejects.toMatchObject({ code: 'PROVIDER_MODEL_NOT_FOUND', status: 404 });
      await expect(failure).rejects.toThrow(/try pulling it first/);
    } finally {
      await server.close();
    }
  });
});

describe('ollama stream errors', () => {
  it('reports an {"error"} line mid-stream as PROVIDER_SERVER', async () => {
    const server = await startTestServer([
      { headers: { 'content-type': 'application/x-ndjson' }, chunks: ['{"model":"llama3.2","message":{"role":"assistant","content":"Hi"},"done":false}\n', '{"error":"llama runner process has terminated"}\n'] },
    ]);
    try {
      const failure = createOllamaProvider({ baseURL: server.url }).languageModel(MODEL).generate({ prompt: 'x', onText: () => {} });
      await expect(failure).rejects.toMatchObject({ code: 'PROVIDER_SERVER', attempts: 1 });
    } finally {
      await server.close();
    }
  });

  it('fails a stream with a line that is not JSON as PROVIDER_BAD_RESPONSE, printing nothing of it (walkthrough: the client printed the line, a key in it, and the reply passed as whole)', async () => {
    const secret = 'sk-ZZTOPSECRET-9f8e7d6c5b4a';
    // The bad line is split across two writes, as a stream may cut it.
    const server = await startTestServer([
      {
        headers: { 'content-type': 'application/x-ndjson' },
        chunks: ['{"model":"llama3.2","message":{"role":"assistant","content":"Hi"},"done":false}\n{"echo": "Bearer ', `${secret}" bad\n`, '{"model":"llama3.2","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":1,"eval_count":1}\n'],
      },
    ]);
    const printed: string[] = [];
    const spies = (['log', 'warn', 'error', 'info', 'debug'] as const).map((method) => vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void printed.push(args.map(String).join(' '))));
    try {
      const failure = createOllamaProvider({ baseURL: server.url }).languageModel(MODEL).generate({ prompt: 'x', onText: () => {} });
      await expect(failure).rejects.toMatchObject({ code: 'PROVIDER_BAD_RESPONSE', message: expect.stringMatching(/a line of the stream is not JSON \(\d+ characters\)/) });
      await expect(failure).rejects.not.toThrow(new RegExp(secret));
      expect(printed).toEqual([]);
    } finally {
      for (const spy of spies) spy.mockRestore();
      await server.close();
    }
  });
});
