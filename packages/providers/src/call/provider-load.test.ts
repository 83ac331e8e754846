/**
 * A provider's `load` (its SDK, imported on first use) is awaited before the
 * first attempt's timer starts. Before, the SDK loaded inside the attempt: a
 * short `timeoutMs` fired on the first call of a process before any request
 * was sent (loading `openai` takes ~150 ms on an idle machine, several times
 * that on a busy one).
 */
import { describe, expect, it, vi } from 'vitest';
import { createLanguageModel } from './create-language-model.ts';
import { defineProvider, type ProviderDefinition } from './define-provider.ts';
import type { AttemptResult } from './model-attempt.ts';

const OK: AttemptResult = { text: 'done', usage: { inputTokens: 1, outputTokens: 1 }, finishReason: 'stop', raw: {} };
const retry = { maxRetries: 0, sleep: async () => {}, random: () => 0 };
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a provider's load", () => {
  it('does not count against timeoutMs: a load longer than the timeout still gets its request answered', async () => {
    let loaded = false;
    const model = createLanguageModel({
      provider: 'test', modelId: 'm', retry, timeoutMs: 40,
      load: async () => {
        await wait(120);
        loaded = true;
      },
      attempt: async () => {
        expect(loaded).toBe(true);
        return OK;
      },
    });
    await expect(model.generate({ prompt: 'x' })).resolves.toMatchObject({ text: 'done', attempts: 1 });
  });

  it('is what the timeout would have fired on inside the attempt (the old behaviour, for contrast)', async () => {
    const model = createLanguageModel({
      provider: 'test', modelId: 'm', retry, timeoutMs: 40,
      attempt: async () => {
        await wait(120);
        return OK;
      },
    });
    await expect(model.generate({ prompt: 'x' })).rejects.toMatchObject({ code: 'PROVIDER_TIMEOUT' });
  });

  it('is awaited until it has loaded once, not at every call', async () => {
    let loads = 0;
    let fail = true;
    const model = createLanguageModel({
      provider: 'test', modelId: 'm', retry,
      load: async () => {
        loads++;
        if (fail) throw new Error('not yet');
      },
      attempt: async () => OK,
    });
    await model.generate({ prompt: 'x' });
    fail = false;
    await model.generate({ prompt: 'x' });
    await model.generate({ prompt: 'x' });
    expect(loads).toBe(2);
  });

  it('leaves a failed load to the attempt, which reports it as before', async () => {
    const load = vi.fn(async () => {
      throw new Error("Cannot find package 'openai'");
    });
    const model = createLanguageModel({
      provider: 'test', modelId: 'm', retry, load,
      attempt: async () => {
        throw new Error("Cannot find package 'openai'");
      },
    });
    await expect(model.generate({ prompt: 'x' })).rejects.toMatchObject({ code: 'PROVIDER_UNKNOWN', message: expect.stringContaining("Cannot find package 'openai'") });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("ends at the caller's abort, without an attempt", async () => {
    let attempts = 0;
    const model = createLanguageModel({
      provider: 'test', modelId: 'm', retry,
      load: () => new Promise(() => {}),
      attempt: async () => (attempts++, OK),
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user left')), 20);
    await expect(model.generate({ prompt: 'x', signal: controller.signal })).rejects.toMatchObject({ code: 'PROVIDER_ABORTED' });
    expect(attempts).toBe(0);
  });

  it('that never settles still ends the call at timeoutMs after its wait (review: the call hung for good)', async () => {
    vi.useFakeTimers();
    try {
      let attempts = 0;
      const loading = new Promise<never>(() => {});
      const model = createLanguageModel({
        provider: 'test', modelId: 'm', retry, timeoutMs: 50,
        load: () => loading,
        // As a built-in provider's attempt does, it awaits the same load (within its own timeout).
        attempt: async () => (attempts++, await loading),
      });
      const call = model.generate({ prompt: 'x' });
      const outcome = call.then(() => 'answered', (error: { code?: string }) => error.code);
      // The wait for the load is the longer of timeoutMs and 30 s; then the attempt's 50 ms.
      await vi.advanceTimersByTimeAsync(29_999);
      expect(attempts).toBe(0);
      await vi.advanceTimersByTimeAsync(1);
      expect(attempts).toBe(1);
      await vi.advanceTimersByTimeAsync(50);
      expect(await outcome).toBe('PROVIDER_TIMEOUT');
    } finally {
      vi.useRealTimers();
    }
  });

  it('must be a function (PROVIDER_CONFIG), in defineProvider and createLanguageModel', () => {
    expect(() => defineProvider({ name: 'p', settings: {}, attempt: () => async () => OK, load: 'openai' as never })).toThrow(expect.objectContaining({ code: 'PROVIDER_CONFIG', message: expect.stringContaining("load must be a function () => promise, awaited before a call's first attempt, got a string") }));
    expect(() => createLanguageModel({ provider: 'p', modelId: 'm', attempt: async () => OK, load: {} as never })).toThrow(expect.objectContaining({ code: 'PROVIDER_CONFIG', message: expect.stringContaining('load must be a function') }));
  });
});

// Which built-in factory hands defineProvider its SDK loader: captured from the definition each one builds.
const definitions = vi.hoisted(() => [] as ProviderDefinition[]);
vi.mock('./define-provider.ts', async (importActual) => {
  const actual = await importActual<typeof import('./define-provider.ts')>();
  return {
    ...actual,
    defineProvider: (definition: ProviderDefinition) => {
      definitions.push(definition);
      return actual.defineProvider(definition);
    },
  };
});

describe('the built-in providers', () => {
  it.each([
    ['openai', async () => (await import('../openai/openai-provider.ts')).createOpenAIProvider({ name: 'probe-openai' })],
    ['openai-compatible', async () => (await import('../openai/openai-compatible-provider.ts')).createOpenAICompatibleProvider({ name: 'probe-compatible', baseURL: 'http://127.0.0.1:1/v1' })],
    ['anthropic', async () => (await import('../anthropic/anthropic-provider.ts')).createAnthropicProvider({ name: 'probe-anthropic' })],
    ['google', async () => (await import('../google/google-provider.ts')).createGoogleProvider({ name: 'probe-google' })],
    ['ollama', async () => (await import('../ollama/ollama-provider.ts')).createOllamaProvider({ name: 'probe-ollama' })],
  ])('%s loads its SDK before the first attempt, outside the timeout', async (_name, make) => {
    const provider = await make();
    const definition = definitions.find((candidate) => candidate.name === provider.name);
    expect(definition?.load).toBeTypeOf('function');
    // It is the SDK itself that loads: a class (the client the attempt builds).
    expect(await definition!.load!()).toBeTypeOf('function');
  });
});
