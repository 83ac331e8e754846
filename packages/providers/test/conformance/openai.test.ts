import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createOpenAICompatibleProvider } from '../../src/openai/openai-compatible-provider.ts';
import { createOpenAIProvider } from '../../src/openai/openai-provider.ts';
import { jsonFixture, sseChunks } from '../support/fixtures.ts';
import { openAIErrorResponses } from '../support/openai-error-bodies.ts';
import { startTestServer } from '../support/test-server.ts';
import type { ProviderHarness } from './provider-harness.ts';
import { runProviderConformance } from './run-provider-conformance.ts';

const KEY = 'sk-test-openai-0123456789abcdef';

const common = {
  modelId: 'gpt-4.1-mini',
  apiKey: KEY,
  path: /^\/v1\/chat\/completions$/,
  streamPath: /^\/v1\/chat\/completions$/,
  ...openAIErrorResponses,
  success: { body: jsonFixture('openai/chat-completion.json') },
  expected: { text: 'Hello! How can I assist you today?', usage: { inputTokens: 19, outputTokens: 10, cachedInputTokens: 0 }, finishReason: 'stop' as const },
  stream: { headers: { 'content-type': 'text/event-stream' }, chunks: sseChunks('openai/chat-completion-stream.sse') },
  expectedStream: { text: 'Hello! How can I assist you today?', usage: { inputTokens: 19, outputTokens: 10, cachedInputTokens: 0 } },
  wrongShape: { body: { id: 'chatcmpl-1', object: 'chat.completion' } },
};

const openAIHarness: ProviderHarness = {
  ...common,
  provider: 'openai',
  model: ({ baseURL, prices, ...rest }) =>
    createOpenAIProvider({ apiKey: KEY, baseURL: `${baseURL}/v1`, ...rest }).languageModel('gpt-4.1-mini', prices ? { prices } : {}),
};

const compatibleHarness: ProviderHarness = {
  ...common,
  provider: 'vllm',
  model: ({ baseURL, prices, ...rest }) =>
    createOpenAICompatibleProvider({ name: 'vllm', apiKey: KEY, baseURL: `${baseURL}/v1`, ...rest }).languageModel('gpt-4.1-mini', prices ? { prices } : {}),
};

runProviderConformance(openAIHarness);
runProviderConformance(compatibleHarness);

describe('openai request body', () => {
  it('sends every generation setting', async () => {
    const server = await startTestServer([{ body: jsonFixture('openai/chat-completion.json') }]);
    try {
      const model = createOpenAIProvider({ apiKey: KEY, baseURL: `${server.url}/v1` }).languageModel('gpt-4.1-mini');
      const result = await model.generate({
        system: 'rules',
        prompt: 'envelope',
        settings: { temperature: 0.2, topP: 0.9, maxOutputTokens: 256, stopSequences: ['<<<END>>>'], seed: 7, topK: 3 },
      });
      expect(server.requests[0]?.json).toMatchObject({
        model: 'gpt-4.1-mini',
        messages: [{ role: 'system', content: 'rules' }, { role: 'user', content: 'envelope' }],
        temperature: 0.2,
        top_p: 0.9,
        max_completion_tokens: 256,
        stop: ['<<<END>>>'],
        seed: 7,
      });
      expect(result.warnings).toEqual(['topK is not supported by Chat Completions; ignored']);
    } finally {
      await server.close();
    }
  });

  it('compatible servers get max_tokens and no key unless one is configured', async () => {
    const server = await startTestServer([{ body: jsonFixture('openai/chat-completion.json') }]);
    const previous = process.env['OPENAI_API_KEY'];
    process.env['OPENAI_API_KEY'] = 'sk-real-openai-key-must-not-travel';
    try {
      const model = createOpenAICompatibleProvider({ name: 'lmstudio', baseURL: `${server.url}/v1` }).languageModel('qwen3');
      await model.generate({ prompt: 'x', settings: { maxOutputTokens: 64 } });
      expect(server.requests[0]?.json).toMatchObject({ max_tokens: 64 });
      expect(JSON.stringify(server.requests[0]?.headers)).not.toContain('sk-real-openai-key-must-not-travel');
    } finally {
      if (previous === undefined) delete process.env['OPENAI_API_KEY'];
      else process.env['OPENAI_API_KEY'] = previous;
      await server.close();
    }
  });
});

describe('openai configuration', () => {
  it('reports a missing key as PROVIDER_CONFIG naming the variable, when called rather than when created', async () => {
    const previous = process.env['OPENAI_API_KEY'];
    delete process.env['OPENAI_API_KEY'];
    try {
      const model = createOpenAIProvider({ baseURL: 'http://127.0.0.1:9/v1' }).languageModel('gpt-4.1-mini');
      await expect(model.generate({ prompt: 'x' })).rejects.toMatchObject({
        code: 'PROVIDER_CONFIG',
        attempts: 1,
        message: '[openai:gpt-4.1-mini] PROVIDER_CONFIG: no API key: set OPENAI_API_KEY (or, in code, pass apiKey to the provider)',
      });
    } finally {
      if (previous !== undefined) process.env['OPENAI_API_KEY'] = previous;
    }
  });

  it('restricts models to the configured allow-list', () => {
    expect(() => createOpenAIProvider({ apiKey: KEY, models: ['gpt-4.1-mini'] }).languageModel('gpt-5')).toThrow(
      /PROVIDER_MODEL_NOT_FOUND: unknown model "gpt-5"; available: gpt-4.1-mini/,
    );
  });
});

describe('openai streams read from the body', () => {
  const streamed = (chunks: string[], extra: { chunkDelayMs?: number } = {}) => ({ headers: { 'content-type': 'text/event-stream' }, chunks, ...extra });
  const chunk = (content: string, finishReason: string | null = null): string =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: finishReason }] })}\n\n`;
  const compatible = (url: string, retries = 2) =>
    createOpenAICompatibleProvider({ name: 'vllm', apiKey: KEY, baseURL: `${url}/v1`, retry: { maxRetries: retries, initialDelayMs: 1, maxDelayMs: 1 } }).languageModel('m');

  it.each([
    ['a server error', { message: 'the model is overloaded', type: 'server_error' }, 'PROVIDER_SERVER', 'error in stream: the model is overloaded (server_error)', 3],
    ["vLLM's status in code", { message: 'prompt too long', type: 'BadRequestError', code: 400 }, 'PROVIDER_BAD_REQUEST', 'error in stream: prompt too long (BadRequestError) (400)', 1],
    ['an invalid request', { message: 'maximum context length exceeded', type: 'invalid_request_error', code: 'context_length_exceeded' }, 'PROVIDER_BAD_REQUEST', 'error in stream: maximum context length exceeded (invalid_request_error) (context_length_exceeded)', 1],
    ['a rate limit', { message: 'slow down', type: 'rate_limit_error' }, 'PROVIDER_RATE_LIMIT', 'error in stream: slow down (rate_limit_error)', 3],
  ])('codes an error event as the same error in an HTTP status would be: %s', async (_name, error, code, message, requests) => {
    const server = await startTestServer([streamed([`data: ${JSON.stringify({ error })}\n\n`])]);
    try {
      await expect(compatible(server.url).generate({ prompt: 'x', onText: () => {} })).rejects.toMatchObject({ code, message: `[vllm:m] ${code}: ${message}` });
      expect(server.requests).toHaveLength(requests);
    } finally {
      await server.close();
    }
  });

  it('says a streamed request was answered with no stream at all, naming the status and content type', async () => {
    const server = await startTestServer([{ headers: { 'content-type': 'text/html' }, body: '<html><body>a proxy page</body></html>' }]);
    try {
      await expect(compatible(server.url, 0).generate({ prompt: 'x', onText: () => {} })).rejects.toMatchObject({
        code: 'PROVIDER_BAD_RESPONSE',
        message: expect.stringContaining("the stream ended before any finish_reason (no events: the answer was HTTP 200 with content-type text/html, not text/event-stream; check that the base URL points at a Chat Completions API, not at a web page, a proxy or another server, and that the server streams)"),
      });
    } finally {
      await server.close();
    }
  });

  it('reads a streamed request answered with one JSON completion (a server that ignores stream: true) as the reply, delivered once, with a warning', async () => {
    const server = await startTestServer([{ body: jsonFixture('openai/chat-completion.json') }]);
    try {
      const deltas: string[] = [];
      const result = await compatible(server.url, 0).generate({ prompt: 'x', onText: (delta) => deltas.push(delta) });
      expect(result).toMatchObject({ text: 'Hello! How can I assist you today?', finishReason: 'stop', usage: { inputTokens: 19, outputTokens: 10 } });
      expect(deltas).toEqual(['Hello! How can I assist you today?']);
      expect(result.warnings).toContainEqual(expect.stringContaining('the server answered without streaming (content-type application/json'));
      expect(JSON.parse(server.requests[0]!.body)).toMatchObject({ stream: true });
    } finally {
      await server.close();
    }
  });

  it('refuses such a JSON answer that is no completion, or no JSON, as PROVIDER_BAD_RESPONSE', async () => {
    const server = await startTestServer([{ body: { id: 'x', object: 'chat.completion' } }, { headers: { 'content-type': 'application/json' }, body: '{"choices": [' }]);
    try {
      await expect(compatible(server.url, 0).generate({ prompt: 'x', onText: () => {} })).rejects.toMatchObject({ code: 'PROVIDER_BAD_RESPONSE', message: expect.stringContaining('no choices[0].message.content in the response') });
      await expect(compatible(server.url, 0).generate({ prompt: 'x', onText: () => {} })).rejects.toMatchObject({ code: 'PROVIDER_BAD_RESPONSE', message: expect.stringContaining('application/json that is not JSON (13 characters)') });
    } finally {
      await server.close();
    }
  });

  it('says a stream whose connection dropped mid-reply was cut, and why it was not retried', async () => {
    // A server that sends one chunk and then drops the connection: Node's fetch-like body says only "terminated".
    const server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(chunk('Hel'), () => setTimeout(() => response.socket?.destroy(), 20));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const deltas: string[] = [];
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const error = (await compatible(url).generate({ prompt: 'x', onText: (delta) => deltas.push(delta) }).catch((caught: unknown) => caught)) as Error;
      expect(error).toMatchObject({ code: 'PROVIDER_NETWORK', retryable: false });
      expect(error.message).toBe('[vllm:m] PROVIDER_NETWORK: terminated: the connection closed before the response ended (aborted) (after part of the reply had streamed, so not retried)');
      expect(deltas).toEqual(['Hel']);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('does not retry an error event once text was delivered', async () => {
    const server = await startTestServer([streamed([chunk('Hel'), 'data: {"error":{"message":"the model is overloaded","type":"server_error"}}\n\n'])]);
    try {
      const deltas: string[] = [];
      await expect(compatible(server.url).generate({ prompt: 'x', onText: (delta) => deltas.push(delta) })).rejects.toMatchObject({ code: 'PROVIDER_SERVER', retryable: false });
      expect(deltas.join('')).toBe('Hel');
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('codes a Responses API error event by its code', async () => {
    const server = await startTestServer([streamed(['event: error\ndata: {"type":"error","code":"rate_limit_exceeded","message":"Rate limit reached","param":null,"sequence_number":0}\n\n'])]);
    try {
      const model = createOpenAIProvider({ apiKey: KEY, baseURL: `${server.url}/v1`, api: 'responses', retry: { maxRetries: 0 } }).languageModel('gpt-4.1-mini');
      await expect(model.generate({ prompt: 'x', onText: () => {} })).rejects.toMatchObject({
        code: 'PROVIDER_RATE_LIMIT',
        message: '[openai:gpt-4.1-mini] PROVIDER_RATE_LIMIT: error in stream: Rate limit reached (rate_limit_exceeded)',
      });
    } finally {
      await server.close();
    }
  });

  it('reports an event that is not JSON as PROVIDER_BAD_RESPONSE without quoting it (no part of a key can slip through a cut)', async () => {
    const server = await startTestServer([streamed([chunk('Hel'), `data: <html>${'x'.repeat(60)} key ${KEY}</html>\n\n`])]);
    try {
      const failure = compatible(server.url, 0).generate({ prompt: 'x', onText: () => {} });
      await expect(failure).rejects.toMatchObject({ code: 'PROVIDER_BAD_RESPONSE', message: '[vllm:m] PROVIDER_BAD_RESPONSE: a stream event is not JSON (109 characters) (after part of the reply had streamed, so not retried)' });
      const error = await failure.catch((caught: unknown) => caught);
      expect(JSON.stringify(error)).not.toContain(KEY.slice(0, 8));
    } finally {
      await server.close();
    }
  });

  it('ignores what follows [DONE] and answers at [DONE], even if the server never ends the body', async () => {
    // The server sends [DONE], then waits a minute before an event that must be ignored.
    const server = await startTestServer([streamed([`${chunk('Hello', 'stop')}data: [DONE]\n\n`, chunk(' ignored')], { chunkDelayMs: 60_000 })]);
    try {
      const deltas: string[] = [];
      const result = await compatible(server.url).generate({ prompt: 'x', onText: (delta) => deltas.push(delta), timeoutMs: 10_000 });
      expect(result.text).toBe('Hello');
      expect(deltas.join('')).toBe('Hello');
    } finally {
      await server.close();
    }
  });

  it('stops a stream in progress when the caller aborts or the attempt times out, with the usual codes', async () => {
    const slow = streamed([chunk('Hel'), chunk('lo'), chunk('!', 'stop'), 'data: [DONE]\n\n'], { chunkDelayMs: 60_000 });
    const server = await startTestServer([slow]);
    try {
      const controller = new AbortController();
      const aborted = compatible(server.url).generate({ prompt: 'x', signal: controller.signal, onText: () => controller.abort() });
      await expect(aborted).rejects.toMatchObject({ code: 'PROVIDER_ABORTED' });
      const started = performance.now();
      await expect(compatible(server.url, 0).generate({ prompt: 'x', onText: () => {}, timeoutMs: 200 })).rejects.toMatchObject({ code: 'PROVIDER_TIMEOUT' });
      expect(performance.now() - started).toBeLessThan(5_000);
    } finally {
      await server.close();
    }
  });
});

describe('createOpenAICompatibleProvider settings', () => {
  it('requires baseURL, so a prompt never goes to OpenAI by default: PROVIDER_CONFIG when the provider is made', () => {
    expect(() => createOpenAICompatibleProvider({ name: 'x' } as never)).toThrow(
      expect.objectContaining({ code: 'PROVIDER_CONFIG', provider: 'x', message: expect.stringContaining("baseURL is required: the server's URL with its version path, e.g. http://127.0.0.1:8000/v1 (got none)") }),
    );
    expect(() => createOpenAICompatibleProvider({ name: 'x', baseURL: 'localhost:8000/v1' })).toThrow(expect.objectContaining({ code: 'PROVIDER_CONFIG', message: expect.stringContaining('baseURL must be an http:// or https:// URL') }));
    expect(() => createOpenAICompatibleProvider({ name: 'x', baseURL: 'not a url' })).toThrow(expect.objectContaining({ code: 'PROVIDER_CONFIG' }));
  });

  it('refuses a setting it does not know, with the one it most likely meant', () => {
    expect(() => createOpenAICompatibleProvider({ name: 'x', baseURL: 'http://127.0.0.1:1/v1', apikey: 'k' } as never)).toThrow(
      expect.objectContaining({ code: 'PROVIDER_CONFIG', message: expect.stringContaining("there is no setting 'apikey'; did you mean 'apiKey'?") }),
    );
    expect(() => createOpenAICompatibleProvider({ name: 'x', baseURL: 'http://127.0.0.1:1/v1', timeout: 5 } as never)).toThrow(expect.objectContaining({ message: expect.stringContaining("there is no setting 'timeout'; did you mean 'timeoutMs'?") }));
    expect(() => createOpenAICompatibleProvider({ name: 'x', baseURL: 'http://127.0.0.1:1/v1', base: 'y' } as never)).toThrow(expect.objectContaining({ message: expect.stringContaining("there is no setting 'base'; did you mean 'baseURL'?") }));
  });
});
