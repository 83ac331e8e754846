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
