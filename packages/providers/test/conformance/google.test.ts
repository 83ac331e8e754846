import { describe, expect, it } from 'vitest';
import { createGoogleProvider } from '../../src/google/google-provider.ts';
import { jsonFixture, sseChunks } from '../support/fixtures.ts';
import { startTestServer } from '../support/test-server.ts';
import { runProviderConformance } from './run-provider-conformance.ts';

const KEY = 'AIzaSyTest-0123456789abcdefghijkl';
const MODEL = 'gemini-2.5-flash';

runProviderConformance({
  provider: 'google',
  modelId: MODEL,
  apiKey: KEY,
  model: ({ baseURL, prices, ...rest }) =>
    createGoogleProvider({ apiKey: KEY, baseURL, ...rest }).languageModel(MODEL, prices ? { prices } : {}),
  path: /^\/v1beta\/models\/gemini-2\.5-flash:generateContent$/,
  streamPath: /^\/v1beta\/models\/gemini-2\.5-flash:streamGenerateContent\?alt=sse$/,
  sentKey: (request) => request.headers['x-goog-api-key'] as string | undefined,
  success: { body: jsonFixture('google/generate-content.json') },
  expected: {
    text: 'AI learns patterns from data to make predictions or decisions.',
    usage: { inputTokens: 8, outputTokens: 12, cachedInputTokens: 2 },
    finishReason: 'stop',
  },
  stream: { headers: { 'content-type': 'text/event-stream' }, chunks: sseChunks('google/stream-generate-content.sse') },
  expectedStream: { text: 'AI learns patterns from data to make predictions or decisions.', usage: { inputTokens: 8, outputTokens: 12 } },
  error: (status, message, headers) => ({
    status,
    ...(headers ? { headers } : {}),
    body: { error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : 'INTERNAL' } },
  }),
  authFailure: { status: 400, body: jsonFixture('google/error-400-api-key.json') },
  rateLimited: { status: 429, body: jsonFixture('google/error-429.json') },
  serverError: { status: 500, body: jsonFixture('google/error-500.json') },
  wrongShape: { body: { modelVersion: 'gemini-2.5-flash' } },
});

describe('google request body', () => {
  it('sends every generation setting and the system instruction (the reference dropped them)', async () => {
    const server = await startTestServer([{ body: jsonFixture('google/generate-content.json') }]);
    try {
      const model = createGoogleProvider({ apiKey: KEY, baseURL: server.url }).languageModel(MODEL);
      await model.generate({
        system: 'rules',
        prompt: 'envelope',
        messages: [{ role: 'user', content: 'earlier' }, { role: 'assistant', content: 'reply' }],
        settings: { temperature: 0.3, topP: 0.7, topK: 20, maxOutputTokens: 512, stopSequences: ['<<<END>>>'], seed: 42 },
      });
      expect(server.requests[0]?.json).toMatchObject({
        contents: [
          { role: 'user', parts: [{ text: 'earlier' }] },
          { role: 'model', parts: [{ text: 'reply' }] },
          { role: 'user', parts: [{ text: 'envelope' }] },
        ],
        systemInstruction: { parts: [{ text: 'rules' }] },
        generationConfig: { temperature: 0.3, topP: 0.7, topK: 20, maxOutputTokens: 512, stopSequences: ['<<<END>>>'], seed: 42 },
      });
      expect(server.requests[0]?.url).not.toContain(KEY);
    } finally {
      await server.close();
    }
  });

  it('reads the retry delay from the RetryInfo of a 429 body', async () => {
    const server = await startTestServer([{ status: 429, body: jsonFixture('google/error-429.json') }, { body: jsonFixture('google/generate-content.json') }]);
    const sleeps: number[] = [];
    try {
      const retry = { sleep: async (ms: number) => void sleeps.push(ms) };
      const model = createGoogleProvider({ apiKey: KEY, baseURL: server.url, retry }).languageModel(MODEL);
      await model.generate({ prompt: 'x' });
      expect(sleeps).toEqual([2000]);
    } finally {
      await server.close();
    }
  });

  it('reports a blocked prompt as content-filter, not as an error', async () => {
    const server = await startTestServer([{ body: { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 4 } } }]);
    try {
      const result = await createGoogleProvider({ apiKey: KEY, baseURL: server.url }).languageModel(MODEL).generate({ prompt: 'x' });
      expect(result).toMatchObject({ text: '', finishReason: 'content-filter', rawFinishReason: 'SAFETY' });
    } finally {
      await server.close();
    }
  });

  it('reports a blocked prompt the same way when streaming', async () => {
    const blocked = { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 } };
    const server = await startTestServer([{ headers: { 'content-type': 'text/event-stream' }, chunks: [`data: ${JSON.stringify(blocked)}\r\n\r\n`] }]);
    try {
      const result = await createGoogleProvider({ apiKey: KEY, baseURL: server.url }).languageModel(MODEL).generate({ prompt: 'x', onText: () => {} });
      expect(result).toMatchObject({ text: '', finishReason: 'content-filter', rawFinishReason: 'SAFETY', usage: { inputTokens: 4 } });
    } finally {
      await server.close();
    }
  });
});
