/**
 * A reply whose server reports no usage (an OpenAI-compatible server asked
 * without `stream_options`, as the README advises for servers that reject
 * it) gets an estimated usage and cost, with a warning, instead of zero
 * tokens and $0, which would keep a loop's token and cost ceilings from ever
 * tripping. A server that reports usage keeps its own figures.
 */
import { describe, expect, it } from 'vitest';
import { USAGE_ESTIMATED } from '../../src/call/estimate-usage.ts';
import { createOpenAICompatibleProvider } from '../../src/openai/openai-compatible-provider.ts';
import { startTestServer } from '../support/test-server.ts';

const stream = (usage: string) => ({
  headers: { 'content-type': 'text/event-stream' },
  chunks: [`data: {"choices":[{"delta":{"content":"a reply of twenty-four"},"finish_reason":null}]}\n\n`, `data: {"choices":[{"delta":{},"finish_reason":"stop"}]${usage}}\n\n`, 'data: [DONE]\n\n'],
});
const prices = { m: { inputPerMillion: 3, outputPerMillion: 15 } };

describe('a reply without usage', () => {
  it('is given an estimate (4 characters a token) and its cost, with a warning', async () => {
    const server = await startTestServer([stream('')]);
    try {
      const model = createOpenAICompatibleProvider({ name: 'llamacpp', baseURL: `${server.url}/v1`, includeStreamUsage: false, prices }).languageModel('m');
      const result = await model.generate({ system: 'rules', prompt: 'x'.repeat(400), onText: () => {} });
      expect(result.usage).toEqual({ inputTokens: 2 + 100, outputTokens: 6 });
      expect(result.costUsd).toBeCloseTo((102 * 3 + 6 * 15) / 1e6, 12);
      expect(result.warnings).toContain(USAGE_ESTIMATED);
    } finally {
      await server.close();
    }
  });

  it('keeps the usage a server reports', async () => {
    const server = await startTestServer([stream(',"usage":{"prompt_tokens":7,"completion_tokens":3}')]);
    try {
      const model = createOpenAICompatibleProvider({ name: 'llamacpp', baseURL: `${server.url}/v1`, prices }).languageModel('m');
      const result = await model.generate({ prompt: 'x', onText: () => {} });
      expect(result.usage).toMatchObject({ inputTokens: 7, outputTokens: 3 });
      expect(result.warnings).not.toContain(USAGE_ESTIMATED);
    } finally {
      await server.close();
    }
  });
});
