import { APICallError } from '@ai-sdk/provider';
import { convertArrayToReadableStream, MockLanguageModelV3, MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createAISDKProvider, fromAISDK } from './ai-sdk-provider.ts';

const usage = {
  inputTokens: { total: 12, noCache: 8, cacheRead: 4, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const finishReason = { unified: 'stop' as const, raw: 'end_turn' };

describe('fromAISDK', () => {
  it('calls doGenerate with our prompt and settings, and maps the result (V3)', async () => {
    const mock = new MockLanguageModelV3({
      provider: 'mock',
      modelId: 'mock-1',
      doGenerate: { content: [{ type: 'text', text: 'hello ' }, { type: 'text', text: 'there' }], finishReason, usage, warnings: [] },
    });
    const result = await fromAISDK(mock).generate({
      system: 'rules',
      prompt: 'envelope',
      messages: [{ role: 'assistant', content: 'before' }],
      settings: { temperature: 0.5, topP: 0.9, topK: 3, maxOutputTokens: 10, stopSequences: ['X'], seed: 9 },
    });
    expect(result).toMatchObject({ provider: 'mock', model: 'mock-1', text: 'hello there', finishReason: 'stop', rawFinishReason: 'end_turn' });
    expect(result.usage).toEqual({ inputTokens: 12, outputTokens: 5, cachedInputTokens: 4 });
    expect(mock.doGenerateCalls[0]).toMatchObject({
      prompt: [
        { role: 'system', content: 'rules' },
        { role: 'assistant', content: [{ type: 'text', text: 'before' }] },
        { role: 'user', content: [{ type: 'text', text: 'envelope' }] },
      ],
      temperature: 0.5,
      topP: 0.9,
      topK: 3,
      maxOutputTokens: 10,
      stopSequences: ['X'],
      seed: 9,
    });
  });

  it('streams through doStream (V4)', async () => {
    const mock = new MockLanguageModelV4({
      doStream: {
        stream: convertArrayToReadableStream([
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: '1' },
          { type: 'text-delta', id: '1', delta: 'Hel' },
          { type: 'text-delta', id: '1', delta: 'lo' },
          { type: 'text-end', id: '1' },
          { type: 'finish', usage, finishReason },
        ]),
      },
    });
    const deltas: string[] = [];
    const result = await fromAISDK(mock, { name: 'vercel' }).generate({ prompt: 'x', onText: (delta) => deltas.push(delta) });
    expect(deltas).toEqual(['Hel', 'lo']);
    expect(result).toMatchObject({ provider: 'vercel', text: 'Hello', finishReason: 'stop' });
  });

  it('retries an APICallError 429 and honours its retry-after header', async () => {
    let calls = 0;
    const sleeps: number[] = [];
    const mock = new MockLanguageModelV3({
      doGenerate: async () => {
        calls++;
        if (calls === 1) {
          throw new APICallError({ message: 'slow down', url: 'https://x', requestBodyValues: {}, statusCode: 429, responseHeaders: { 'retry-after': '1' } });
        }
        return { content: [{ type: 'text', text: 'ok' }], finishReason, usage, warnings: [] };
      },
    });
    const result = await fromAISDK(mock, { retry: { sleep: async (ms) => void sleeps.push(ms) } }).generate({ prompt: 'x' });
    expect(result.attempts).toBe(2);
    expect(sleeps).toEqual([1000]);
  });

  it('maps an error part of the stream, and redacts the configured key', async () => {
    const mock = new MockLanguageModelV3({
      doStream: {
        stream: convertArrayToReadableStream([
          { type: 'error', error: new APICallError({ message: 'bad key sk-mock-secret-1', url: 'https://x', requestBodyValues: {}, statusCode: 401 }) },
        ]),
      },
    });
    const failure = fromAISDK(mock, { secrets: ['sk-mock-secret-1'] }).generate({ prompt: 'x', onText: () => {} });
    await expect(failure).rejects.toMatchObject({ code: 'PROVIDER_AUTH', status: 401 });
    await expect(failure).rejects.toSatisfy((error) => !JSON.stringify(error).includes('sk-mock-secret-1'));
  });

  it('cancels the stream after an error part and aborts the call\'s signal, so the model stops producing it', async () => {
    let cancelled = 0;
    let signal: AbortSignal | undefined;
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue({ type: 'stream-start', warnings: [] });
        controller.enqueue({ type: 'error', error: new APICallError({ message: 'overloaded', url: 'https://x', requestBodyValues: {}, statusCode: 529 }) });
        // The model would go on: more parts follow the error unless the stream is cancelled.
        controller.enqueue({ type: 'text-delta', id: '1', delta: 'more' });
      },
      cancel() {
        cancelled += 1;
      },
    });
    const mock = new MockLanguageModelV3({
      doStream: async (options) => {
        signal = options.abortSignal;
        return { stream };
      },
    });
    await expect(fromAISDK(mock, { retry: { maxRetries: 0 } }).generate({ prompt: 'x', onText: () => {} })).rejects.toMatchObject({ code: 'PROVIDER_SERVER' });
    expect(cancelled).toBe(1);
    expect(signal?.aborted).toBe(true);
  });

  it('names the provider after a model whose provider holds a \':\' or white space, each run of them a \'-\'', async () => {
    // Before: createLanguageModel refused the AI SDK's own label, and fromAISDK threw PROVIDER_CONFIG for a model that works.
    const answer = { content: [{ type: 'text' as const, text: 'ok' }], finishReason, usage, warnings: [] };
    const gateway = new MockLanguageModelV4({ provider: 'gateway:openai', modelId: 'gpt-5', doGenerate: answer });
    expect(await fromAISDK(gateway).generate({ prompt: 'x' })).toMatchObject({ provider: 'gateway-openai', model: 'gpt-5', text: 'ok' });
    const spaced = new MockLanguageModelV3({ provider: ' My  Server: chat\n', doGenerate: answer });
    expect((await fromAISDK(spaced).generate({ prompt: 'x' })).provider).toBe('My-Server-chat');
    // A name given is taken as it is, whatever the label.
    expect((await fromAISDK(gateway, { name: 'vercel' }).generate({ prompt: 'x' })).provider).toBe('vercel');
  });

  it('refuses a model whose provider leaves no name, saying how to pass one, and a name given that is no name', () => {
    for (const provider of ['', ' : ']) {
      const model = new MockLanguageModelV4({ provider, modelId: 'm-1' });
      expect(() => fromAISDK(model)).toThrow(expect.objectContaining({ code: 'PROVIDER_CONFIG', model: 'm-1', message: expect.stringContaining("fromAISDK(model, { name: 'my-provider' })") }));
    }
    expect(() => fromAISDK(new MockLanguageModelV4({ provider: 'mock' }), { name: 'a:b' })).toThrow(expect.objectContaining({ code: 'PROVIDER_CONFIG', message: expect.stringContaining('"a:b"') }));
  });

  it('serves as a registry provider', async () => {
    const provider = createAISDKProvider({
      name: 'mock',
      models: ['a'],
      languageModel: (modelId) => new MockLanguageModelV3({ modelId, doGenerate: { content: [{ type: 'text', text: modelId }], finishReason, usage, warnings: [] } }),
    });
    expect((await provider.languageModel('a').generate({ prompt: 'x' })).text).toBe('a');
    expect(() => provider.languageModel('b')).toThrow(/PROVIDER_MODEL_NOT_FOUND/);
  });
});
