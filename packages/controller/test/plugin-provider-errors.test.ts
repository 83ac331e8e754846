/**
 * What a plugin author sees when their `defineProvider` provider is wrong:
 * a halt message that says the provider's code once, and a provider that
 * cannot make a model reported as the malformed plugin it is.
 */
import { createSandboxPool } from '@askloop/interpreter';
import { defineProvider } from '@askloop/providers';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { definePlugin } from '../src/plugin/plugin.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

/** A plugin `bad-plugin` with the provider `bad`, whose attempt is `attempt`. */
const pluginWith = (attempt: unknown) => definePlugin({
  name: 'bad-plugin',
  specificationVersion: 'v1',
  providers: { bad: defineProvider({ name: 'bad', settings: { retry: { maxRetries: 0 } }, attempt: attempt as never }) },
});
const agent = { name: 'a', model: 'bad:m' };

describe("a plugin's provider that fails", () => {
  it('halts with the code said once (it read PROVIDER_BAD_RESPONSE: [bad:m] PROVIDER_BAD_RESPONSE: …), and replays as recorded', async () => {
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [pluginWith(() => async () => ({ text: 42, finishReason: 'stop' }))], store, pool });
    const result = await loop.run({ agent, task: 'x' });
    const said = '[bad:m] PROVIDER_BAD_RESPONSE: result.text must be a string (the reply), got 42';
    expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_PROVIDER', message: said });
    expect((await loop.replay(result.sid)).matched).toBe(true);
    // A session recorded before said the code twice in its decision: replayed, that is no divergence.
    const turns = await store.listTurns(result.sid);
    const last = turns.at(-1);
    if (last?.decision?.kind !== 'HALT') throw new Error('no halt recorded');
    await store.saveTurn({ ...last, decision: { ...last.decision, message: `PROVIDER_BAD_RESPONSE: ${said}` } });
    expect((await loop.replay(result.sid)).matched).toBe(true);
    await loop.close();
  });

  it('is LOOP_PLUGIN_INVALID naming the plugin when its attempt is the request function itself, not (modelId) => request function', async () => {
    const request = async (call: { prompt: string }) => ({ text: call.prompt, finishReason: 'stop' });
    const loop = createAskLoop({ plugins: [pluginWith(request)], store: createMemoryTranscriptStore(), pool });
    await expect(loop.run({ agent, task: 'x' })).rejects.toMatchObject({
      code: 'LOOP_PLUGIN_INVALID',
      plugin: 'bad-plugin',
      message: expect.stringMatching(/^agent 'a': \[bad:m\] PROVIDER_CONFIG: defineProvider: attempt\(modelId\) returned a promise, not the function performing one request.* \(provider 'bad' of plugin 'bad-plugin'; fix the plugin or its options\)$/),
      cause: { code: 'PROVIDER_CONFIG' },
    });
    await loop.close();
  });

  /** A plugin `hand-plugin` whose hand-written provider `hand` makes its models with `languageModel`. */
  const handWith = (languageModel: (modelId: string) => unknown) =>
    definePlugin({ name: 'hand-plugin', specificationVersion: 'v1', providers: { hand: { name: 'hand', languageModel: languageModel as never } } });

  it('is LOOP_PLUGIN_INVALID naming the plugin when its languageModel returns null or a promise (it was a bare TypeError, or a halt saying generate is not a function)', async () => {
    for (const [made, said] of [[null, 'null, not a model'], [Promise.resolve({}), 'a promise; languageModel must return the model itself, synchronously'], [{ provider: 'hand' }, 'an object whose generate is missing, not a function']] as const) {
      const store = createMemoryTranscriptStore();
      const loop = createAskLoop({ plugins: [handWith(() => made)], store, pool });
      await expect(loop.run({ agent: { name: 'a', model: 'hand:m' }, task: 'x' })).rejects.toMatchObject({
        code: 'LOOP_PLUGIN_INVALID',
        plugin: 'hand-plugin',
        hook: 'providers.hand.languageModel',
        message: expect.stringContaining(`plugin 'hand-plugin': providers.hand.languageModel('m') returned ${said}`),
      });
      expect(await store.listSessions()).toEqual([]);
      await loop.close();
    }
  });

  it('is LOOP_PLUGIN_ERROR naming the plugin when its languageModel throws what is no ProviderError (it read LOOP_PROVIDER_NOT_FOUND)', async () => {
    const loop = createAskLoop({ plugins: [handWith(() => { throw new Error('no SDK installed'); })], store: createMemoryTranscriptStore(), pool });
    await expect(loop.run({ agent: { name: 'a', model: 'hand:m' }, task: 'x' })).rejects.toMatchObject({
      code: 'LOOP_PLUGIN_ERROR',
      plugin: 'hand-plugin',
      hook: 'providers.hand.languageModel',
      message: "plugin 'hand-plugin' failed in providers.hand.languageModel('m'): no SDK installed",
    });
    await loop.close();
  });
});
