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
});
