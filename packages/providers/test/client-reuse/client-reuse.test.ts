/**
 * Every SDK-backed provider builds one SDK client and reuses it for all its
 * requests (issue 12: a client per request cost heap and CPU on every call).
 * The SDKs are the real ones, subclassed only to count constructions; the
 * requests go over real HTTP to a loopback server.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createAnthropicProvider } from '../../src/anthropic/anthropic-provider.ts';
import { createGoogleProvider } from '../../src/google/google-provider.ts';
import type { Provider } from '../../src/model/provider.ts';
import { createOllamaProvider } from '../../src/ollama/ollama-provider.ts';
import { createOpenAICompatibleProvider } from '../../src/openai/openai-compatible-provider.ts';
import { createOpenAIProvider } from '../../src/openai/openai-provider.ts';
import { jsonFixture, ndjsonChunks, sseChunks } from '../support/fixtures.ts';
import { startTestServer, type ScriptedResponse, type TestServer } from '../support/test-server.ts';

/** Every SDK client built in this file, by SDK. */
const built = vi.hoisted(() => ({ openai: [] as object[], anthropic: [] as object[], ollama: [] as object[], google: [] as object[] }));

vi.mock('openai', async (importOriginal) => {
  const sdk = await importOriginal<typeof import('openai')>();
  class Counted extends sdk.default {
    constructor(...args: ConstructorParameters<typeof sdk.default>) {
      super(...args);
      built.openai.push(this);
    }
  }
  return { ...sdk, default: Counted };
});
vi.mock('@anthropic-ai/sdk', async (importOriginal) => {
  const sdk = await importOriginal<typeof import('@anthropic-ai/sdk')>();
  class Counted extends sdk.default {
    constructor(...args: ConstructorParameters<typeof sdk.default>) {
      super(...args);
      built.anthropic.push(this);
    }
  }
  return { ...sdk, default: Counted };
});
vi.mock('ollama', async (importOriginal) => {
  const sdk = await importOriginal<typeof import('ollama')>();
  class Counted extends sdk.Ollama {
    constructor(...args: ConstructorParameters<typeof sdk.Ollama>) {
      super(...args);
      built.ollama.push(this);
    }
  }
  return { ...sdk, Ollama: Counted };
});
vi.mock('@google/genai', async (importOriginal) => {
  const sdk = await importOriginal<typeof import('@google/genai')>();
  class Counted extends sdk.GoogleGenAI {
    constructor(...args: ConstructorParameters<typeof sdk.GoogleGenAI>) {
      super(...args);
      built.google.push(this);
    }
  }
  return { ...sdk, GoogleGenAI: Counted };
});

const KEY = 'sk-reuse-test-0123456789abcdef';

interface Case {
  name: string;
  sdk: keyof typeof built;
  provider: (url: string) => Provider;
  success: ScriptedResponse;
  stream: ScriptedResponse;
  text: string;
  /** The text of the stream fixture, where it differs from the plain one. */
  streamText?: string;
}

const CASES: Case[] = [
  {
    name: 'openai',
    sdk: 'openai',
    provider: (url) => createOpenAIProvider({ apiKey: KEY, baseURL: `${url}/v1` }),
    success: { body: jsonFixture('openai/chat-completion.json') },
    stream: { headers: { 'content-type': 'text/event-stream' }, chunks: sseChunks('openai/chat-completion-stream.sse') },
    text: 'Hello! How can I assist you today?',
  },
  {
    name: 'openai-compatible',
    sdk: 'openai',
    provider: (url) => createOpenAICompatibleProvider({ name: 'vllm', apiKey: KEY, baseURL: `${url}/v1` }),
    success: { body: jsonFixture('openai/chat-completion.json') },
    stream: { headers: { 'content-type': 'text/event-stream' }, chunks: sseChunks('openai/chat-completion-stream.sse') },
    text: 'Hello! How can I assist you today?',
  },
  {
    name: 'openai responses',
    sdk: 'openai',
    provider: (url) => createOpenAIProvider({ apiKey: KEY, baseURL: `${url}/v1`, api: 'responses' }),
    success: { body: jsonFixture('openai/response.json') },
    stream: { headers: { 'content-type': 'text/event-stream' }, chunks: sseChunks('openai/response-stream.sse') },
    streamText: 'Hi there!',
    text: (jsonFixture('openai/response.json') as { output: { content?: { text?: string }[] }[] }).output
      .flatMap((item) => item.content ?? [])
      .map((part) => part.text ?? '')
      .join(''),
  },
  {
    name: 'anthropic',
    sdk: 'anthropic',
    provider: (url) => createAnthropicProvider({ apiKey: KEY, baseURL: url }),
    success: { body: jsonFixture('anthropic/message.json') },
    stream: { headers: { 'content-type': 'text/event-stream' }, chunks: sseChunks('anthropic/message-stream.sse') },
    streamText: 'Hello!',
    text: 'Hi! My name is Claude.',
  },
  {
    name: 'ollama',
    sdk: 'ollama',
    provider: (url) => createOllamaProvider({ apiKey: KEY, baseURL: url }),
    success: { body: jsonFixture('ollama/chat.json') },
    stream: { headers: { 'content-type': 'application/x-ndjson' }, chunks: ndjsonChunks('ollama/chat-stream.ndjson') },
    text: 'Hello! How are you today?',
  },
  {
    name: 'google',
    sdk: 'google',
    provider: (url) => createGoogleProvider({ apiKey: KEY, baseURL: url }),
    success: { body: jsonFixture('google/generate-content.json') },
    stream: { headers: { 'content-type': 'text/event-stream' }, chunks: sseChunks('google/stream-generate-content.sse') },
    text: 'AI learns patterns from data to make predictions or decisions.',
  },
];

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.unstubAllEnvs();
});

describe.each(CASES)('$name: one SDK client per provider', (testCase) => {
  it('builds one client for many requests of several models, and reuses one connection for sequential ones', async () => {
    server = await startTestServer([testCase.success]);
    const before = built[testCase.sdk].length;
    const provider = testCase.provider(server.url);
    const first = provider.languageModel('model-a');
    // undici may open a second connection while the first one is being handed back; after that, none.
    for (let index = 0; index < 2; index++) await first.generate({ prompt: `warm-up ${index}` });
    const warm = server.connections;
    for (let index = 0; index < 8; index++) expect((await first.generate({ prompt: `sequential ${index}` })).text).toBe(testCase.text);
    expect(server.connections).toBe(warm);
    const second = provider.languageModel('model-b');
    const concurrent = await Promise.all(Array.from({ length: 8 }, (_, index) => second.generate({ prompt: `concurrent ${index}` })));
    expect(concurrent.map((result) => result.text)).toEqual(Array.from({ length: 8 }, () => testCase.text));
    expect(server.requests).toHaveLength(18);
    expect(built[testCase.sdk].length - before).toBe(1);
  });

  it('reuses one connection for sequential streamed calls, the body ending in a later write than its last event', async () => {
    // The test server writes each event, then ends the body a millisecond later, as a server streaming a model's reply does.
    // OpenAI's SDK cancelled the body at `[DONE]`, before that end arrived, and so closed the connection: 19 connections for 10 calls.
    server = await startTestServer([testCase.stream]);
    const model = testCase.provider(server.url).languageModel('model-a');
    for (let index = 0; index < 2; index++) await model.generate({ prompt: `warm-up ${index}`, onText: () => {} });
    const warm = server.connections;
    for (let index = 0; index < 10; index++) expect((await model.generate({ prompt: `streamed ${index}`, onText: () => {} })).text).toBe(testCase.streamText ?? testCase.text);
    expect(server.connections).toBe(warm);
  });

  it('still works after an aborted request, on the same client', async () => {
    server = await startTestServer([{ hang: true }, testCase.success]);
    const before = built[testCase.sdk].length;
    const model = testCase.provider(server.url).languageModel('model-a');
    const controller = new AbortController();
    const aborted = model.generate({ prompt: 'first', signal: controller.signal });
    await server.requestArrived(1);
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ code: 'PROVIDER_ABORTED' });
    expect((await model.generate({ prompt: 'second' })).text).toBe(testCase.text);
    expect(built[testCase.sdk].length - before).toBe(1);
  });

  it('still streams after a stream cut short, on the same client', async () => {
    server = await startTestServer([{ ...testCase.stream, chunks: testCase.stream.chunks?.slice(0, 2) ?? [] }, testCase.stream]);
    const before = built[testCase.sdk].length;
    const model = testCase.provider(server.url).languageModel('model-a');
    await expect(model.generate({ prompt: 'first', onText: () => {} })).rejects.toMatchObject({ code: 'PROVIDER_BAD_RESPONSE' });
    const deltas: string[] = [];
    const result = await model.generate({ prompt: 'second', onText: (delta) => deltas.push(delta) });
    expect(deltas.join('')).toBe(result.text);
    expect(result.finishReason).toBe('stop');
    expect(built[testCase.sdk].length - before).toBe(1);
  });
});

describe('client config read at call time', () => {
  it('builds a new OpenAI client when the key in the environment changes, and sends the new key', async () => {
    server = await startTestServer([{ body: jsonFixture('openai/chat-completion.json') }]);
    const before = built.openai.length;
    const model = createOpenAIProvider({ baseURL: `${server.url}/v1` }).languageModel('gpt-4.1-mini');
    vi.stubEnv('OPENAI_API_KEY', 'sk-first-key-0123456789');
    await model.generate({ prompt: 'one' });
    await model.generate({ prompt: 'two' });
    vi.stubEnv('OPENAI_API_KEY', 'sk-second-key-0123456789');
    await model.generate({ prompt: 'three' });
    expect(server.requests.map((request) => request.headers['authorization'])).toEqual([
      'Bearer sk-first-key-0123456789',
      'Bearer sk-first-key-0123456789',
      'Bearer sk-second-key-0123456789',
    ]);
    expect(built.openai.length - before).toBe(2);
  });
});

describe('ollama streams on the shared client', () => {
  it('leaves no stream in the client’s list after an abort or a stream cut short', async () => {
    const lines = ndjsonChunks('ollama/chat-stream.ndjson');
    server = await startTestServer([
      { headers: { 'content-type': 'application/x-ndjson' }, chunks: lines, chunkDelayMs: 1_000 },
      { headers: { 'content-type': 'application/x-ndjson' }, chunks: lines.slice(0, 2) },
      { headers: { 'content-type': 'application/x-ndjson' }, chunks: lines },
    ]);
    const before = built.ollama.length;
    const model = createOllamaProvider({ baseURL: server.url }).languageModel('llama3.2');
    const controller = new AbortController();
    const aborted = model.generate({ prompt: 'first', signal: controller.signal, onText: () => controller.abort() });
    await expect(aborted).rejects.toMatchObject({ code: 'PROVIDER_ABORTED' });
    await expect(model.generate({ prompt: 'second', onText: () => {} })).rejects.toMatchObject({ code: 'PROVIDER_BAD_RESPONSE' });
    expect((await model.generate({ prompt: 'third', onText: () => {} })).text).toBe('Hello! How are you today?');
    expect(built.ollama.length - before).toBe(1);
    const client = built.ollama.at(-1) as unknown as { ongoingStreamedRequests: unknown[] };
    expect(client.ongoingStreamedRequests).toEqual([]);
  });
});
