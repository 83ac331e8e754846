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

  it('refuses what is no AI SDK model with PROVIDER_CONFIG, naming its kind (never its content) and what to pass', () => {
    // Before: undefined and null threw a bare TypeError, and a number, a string or a plain object were blamed on their 'provider'.
    const cases: [unknown, string][] = [
      [undefined, 'got undefined'],
      [null, 'got null'],
      [42, 'got a number'],
      ['openai:gpt-4.1-sk-secret', 'got a string'],
      [true, 'got a boolean'],
      [[], 'got a list'],
      [{ provider: 'mock', modelId: 'm-1' }, 'got an object without specificationVersion, doGenerate or doStream'],
      [{ specificationVersion: 'v3', provider: 'mock', modelId: 'm-1', doGenerate: () => undefined }, 'got an object without doStream'],
    ];
    for (const [value, kind] of cases) {
      const attempt = (): unknown => fromAISDK(value as never);
      expect(attempt).toThrow(expect.objectContaining({ name: 'ProviderError', code: 'PROVIDER_CONFIG', retryable: false }));
      expect(attempt).toThrow(kind);
      expect(attempt).toThrow("fromAISDK takes an AI SDK language model");
      expect(attempt).toThrow("fromAISDK(provider('model-id'))");
      // A name given does not hide it: before, fromAISDK(undefined, { name }) threw a TypeError and fromAISDK(42, { name }) failed only at the call.
      expect(() => fromAISDK(value as never, { name: 'mine' })).toThrow(expect.objectContaining({ code: 'PROVIDER_CONFIG', message: expect.stringContaining(kind) }));
    }
    // The text is never quoted: a string passed may be a key.
    expect(() => fromAISDK('openai:gpt-4.1-sk-secret' as never)).toThrow(expect.objectContaining({ message: expect.not.stringContaining('sk-secret') }));
  });

  it('refuses an AI SDK provider passed in place of one of its models, saying to call it with a model id', () => {
    const provider = Object.assign((modelId: string) => new MockLanguageModelV4({ modelId }), { languageModel: (modelId: string) => new MockLanguageModelV4({ modelId }) });
    for (const value of [provider, { languageModel: provider.languageModel }]) {
      expect(() => fromAISDK(value as never)).toThrow(expect.objectContaining({
        code: 'PROVIDER_CONFIG',
        message: expect.stringMatching(/got an AI SDK provider, not one of its models; pass a model it makes: fromAISDK\(provider\('model-id'\)\)/),
      }));
    }
  });

  it('refuses a model of a specification version it cannot call, naming the version and what to use instead', () => {
    const shaped = { provider: 'openai.chat', modelId: 'gpt-4', doGenerate: () => undefined, doStream: () => undefined };
    // Before: taken, and every call failed as PROVIDER_BAD_RESPONSE ('doGenerate returned no content array').
    expect(() => fromAISDK({ ...shaped, specificationVersion: 'v1' } as never)).toThrow(expect.objectContaining({
      code: 'PROVIDER_CONFIG',
      model: 'gpt-4',
      message: expect.stringContaining("specificationVersion 'v1' (AI SDK 4's LanguageModelV1), which fromAISDK cannot call; use a provider package of AI SDK 5 or later"),
    }));
    expect(() => fromAISDK({ ...shaped, specificationVersion: 'v9' } as never)).toThrow(expect.objectContaining({
      code: 'PROVIDER_CONFIG',
      message: expect.stringContaining("specificationVersion 'v9', which this version of @askloop/providers does not know (it calls 'v2', 'v3' and 'v4')"),
    }));
    // A version that is no version label is named by its kind only.
    for (const [version, kind] of [['sk-secret-version', 'a string'], [3, 'a number']] as const) {
      expect(() => fromAISDK({ ...shaped, specificationVersion: version } as never)).toThrow(expect.objectContaining({
        code: 'PROVIDER_CONFIG',
        message: expect.stringMatching(new RegExp(`specificationVersion that is ${kind}, not 'v2', 'v3' or 'v4'`)),
      }));
    }
    expect(() => fromAISDK({ ...shaped, specificationVersion: 'sk-secret-version' } as never)).toThrow(expect.objectContaining({ message: expect.not.stringContaining('sk-secret') }));
    // A model without a string modelId names nothing in results and errors.
    expect(() => fromAISDK({ ...shaped, specificationVersion: 'v3', modelId: undefined } as never)).toThrow(expect.objectContaining({ code: 'PROVIDER_CONFIG', message: expect.stringContaining('got a model whose modelId is undefined: its modelId must be a string') }));
  });

  it('refuses a languageModel of createAISDKProvider that returns no AI SDK model, naming the provider and the model id', () => {
    const provider = createAISDKProvider({ name: 'mine', languageModel: () => undefined as never });
    expect(() => provider.languageModel('m-1')).toThrow(expect.objectContaining({
      code: 'PROVIDER_CONFIG',
      provider: 'mine',
      model: 'm-1',
      message: expect.stringContaining("createAISDKProvider's languageModel('m-1') must return an AI SDK language model"),
    }));
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
