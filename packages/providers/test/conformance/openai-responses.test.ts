import { describe, expect, it } from 'vitest';
import { createOpenAIProvider } from '../../src/openai/openai-provider.ts';
import { jsonFixture, sseChunks } from '../support/fixtures.ts';
import { openAIErrorResponses } from '../support/openai-error-bodies.ts';
import { startTestServer } from '../support/test-server.ts';
import { runProviderConformance } from './run-provider-conformance.ts';

const KEY = 'sk-test-responses-0123456789abcdef';
const MODEL = 'gpt-4.1';

runProviderConformance({
  provider: 'openai',
  modelId: MODEL,
  apiKey: KEY,
  model: ({ baseURL, prices, ...rest }) =>
    createOpenAIProvider({ api: 'responses', apiKey: KEY, baseURL: `${baseURL}/v1`, ...rest }).languageModel(MODEL, prices ? { prices } : {}),
  path: /^\/v1\/responses$/,
  streamPath: /^\/v1\/responses$/,
  ...openAIErrorResponses,
  success: { body: jsonFixture('openai/response.json') },
  expected: {
    text: 'In a peaceful grove beneath a silver moon, a unicorn named Lumina discovered a hidden pool that reflected the stars.',
    usage: { inputTokens: 36, outputTokens: 87, cachedInputTokens: 0 },
    finishReason: 'stop',
  },
  stream: { headers: { 'content-type': 'text/event-stream' }, chunks: sseChunks('openai/response-stream.sse') },
  expectedStream: { text: 'Hi there!', usage: { inputTokens: 37, outputTokens: 11, cachedInputTokens: 0 } },
  wrongShape: { body: { id: 'resp_1', object: 'response' } },
});

describe('openai responses request body', () => {
  it('sends instructions, input and the settings the API has, warning about the others', async () => {
    const server = await startTestServer([{ body: jsonFixture('openai/response.json') }]);
    try {
      const model = createOpenAIProvider({ api: 'responses', apiKey: KEY, baseURL: `${server.url}/v1` }).languageModel(MODEL);
      const result = await model.generate({ system: 'rules', prompt: 'envelope', settings: { temperature: 0.2, topP: 0.9, maxOutputTokens: 99, seed: 1 } });
      expect(server.requests[0]?.json).toEqual({
        model: MODEL,
        instructions: 'rules',
        input: [{ role: 'user', content: 'envelope' }],
        store: false,
        temperature: 0.2,
        top_p: 0.9,
        max_output_tokens: 99,
      });
      expect(result.warnings).toEqual(['seed is not supported by the Responses API; ignored']);
    } finally {
      await server.close();
    }
  });

  it('maps an incomplete response to finish reason length', async () => {
    const incomplete = { ...(jsonFixture('openai/response.json') as object), status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
    const server = await startTestServer([{ body: incomplete }]);
    try {
      const result = await createOpenAIProvider({ api: 'responses', apiKey: KEY, baseURL: `${server.url}/v1` }).languageModel(MODEL).generate({ prompt: 'x' });
      expect(result).toMatchObject({ finishReason: 'length', rawFinishReason: 'max_output_tokens' });
    } finally {
      await server.close();
    }
  });
});

describe('openai responses answered without a stream', () => {
  // Before, both failed as "the stream ended before response.completed", where Chat Completions reads the JSON answer
  // whole and names the content type of anything else, as the README says of OpenAI.
  const responses = (url: string) => createOpenAIProvider({ api: 'responses', apiKey: KEY, baseURL: `${url}/v1`, retry: { maxRetries: 0 } }).languageModel(MODEL);

  it('reads a streamed request answered with one JSON response as the reply, delivered once, with a warning', async () => {
    const server = await startTestServer([{ body: jsonFixture('openai/response.json') }]);
    try {
      const deltas: string[] = [];
      const result = await responses(server.url).generate({ prompt: 'x', onText: (delta) => deltas.push(delta) });
      expect(result).toMatchObject({ text: expect.stringContaining('a unicorn named Lumina'), finishReason: 'stop', usage: { inputTokens: 36, outputTokens: 87 } });
      expect(deltas).toEqual([result.text]);
      expect(result.warnings).toContainEqual(expect.stringContaining('the server answered without streaming (content-type application/json'));
    } finally {
      await server.close();
    }
  });

  it('says a streamed request was answered with no stream at all, naming the status and content type', async () => {
    const server = await startTestServer([{ headers: { 'content-type': 'text/html' }, body: '<html><body>a proxy page</body></html>' }]);
    try {
      await expect(responses(server.url).generate({ prompt: 'x', onText: () => {} })).rejects.toMatchObject({
        code: 'PROVIDER_BAD_RESPONSE',
        message: expect.stringContaining("the stream ended before response.completed (no events: the answer was HTTP 200 with content-type text/html, not text/event-stream; check that the base URL points at a Responses API, not at a web page, a proxy or another server, and that the server streams)"),
      });
    } finally {
      await server.close();
    }
  });
});

describe('openai responses: a plain request answered with no JSON object', () => {
  // Before, the SDK's `'object' in body` threw a TypeError quoting the whole body: "Cannot use 'in' operator to search
  // for 'object' in <html>…", however long the page.
  const responses = (url: string) => createOpenAIProvider({ api: 'responses', apiKey: KEY, baseURL: `${url}/v1`, retry: { maxRetries: 0 } }).languageModel(MODEL);
  const page = `<html><body>a proxy page${'.'.repeat(10_000)}</body></html>`;
  const cut = `{"output": [{"type": "message", "content": "${KEY}`;

  it.each([
    ['a page', { headers: { 'content-type': 'text/html' }, body: page }, 'no output array in the response'],
    ['an empty JSON body', { headers: { 'content-type': 'application/json' }, body: '' }, 'no output array in the response'],
    ['a JSON null', { headers: { 'content-type': 'application/json' }, body: 'null' }, 'no output array in the response'],
    ['JSON cut short', { headers: { 'content-type': 'application/json' }, body: cut }, `the response is labelled application/json but is not JSON (${cut.length} characters)`],
  ])('says %s holds no reply, without quoting it', async (_name, answer, detail) => {
    const server = await startTestServer([answer]);
    try {
      const error = await responses(server.url).generate({ prompt: 'x' }).then(() => undefined, (thrown: unknown) => thrown as Error);
      expect(error).toMatchObject({ code: 'PROVIDER_BAD_RESPONSE', message: `[openai:${MODEL}] PROVIDER_BAD_RESPONSE: ${detail}` });
      expect(JSON.stringify(error)).not.toMatch(/proxy page|sk-test/);
    } finally {
      await server.close();
    }
  });
});
