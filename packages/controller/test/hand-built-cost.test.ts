/**
 * A hand-built `LanguageModel` (not made by `defineProvider`) may report each
 * call's `costUsd` itself, and the loop's cost ceiling counts it. A cost that
 * is no amount of dollars — NaN, negative, Infinity — is the provider's bad
 * reply, not a figure to add: before, NaN made the summed cost NaN and the
 * ceiling was never reached (six turns on a $1 ceiling of calls "costing"
 * NaN), a negative cost paid the other calls back, and Infinity was stored as
 * null. Real sandbox, memory store.
 */
import { createSandboxPool } from '@askloop/interpreter';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { definePlugin } from '../src/plugin/plugin.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

/** A gateway-like hand-built model whose every call reports `costUsd`, and goes on (a new OUTPUT each turn). */
function reportingCost(costUsd: number) {
  let turn = 0;
  return definePlugin({
    name: 'gateway',
    specificationVersion: 'v1',
    providers: {
      gateway: {
        name: 'gateway',
        languageModel: (modelId: string) => ({
          provider: 'gateway',
          modelId,
          generate: async () => {
            turn += 1;
            return { text: envelope(`command\n  emit "turn ${turn}"\nendcommand`), usage: { inputTokens: 1, outputTokens: 1 }, costUsd, finishReason: 'stop' as const, latencyMs: 1, attempts: 1, raw: null, provider: 'gateway', model: modelId, warnings: [] };
          },
        }),
      },
    },
  });
}

const agent = { name: 'paid', model: 'gateway:m', ceilings: { costUsd: 1, maxTurns: 6 } };

describe("a hand-built model's reported cost", () => {
  it.each([[Number.NaN], [-1], [Number.POSITIVE_INFINITY]])('of %s fails the call as PROVIDER_BAD_RESPONSE instead of slipping past the cost ceiling', async (costUsd) => {
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({}), reportingCost(costUsd)], store, pool });
    const result = await loop.run({ agent, task: 'spend' });
    expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_PROVIDER', turns: 1 });
    expect(result.failure).toMatchObject({ code: 'PROVIDER_BAD_RESPONSE', message: expect.stringContaining(`costUsd is ${String(costUsd)}, not a finite number of dollars`) });
    // What the loop counts stays a number (the call's estimate), never NaN, negative or null.
    expect(Number.isFinite(result.usage.costUsd) && result.usage.costUsd >= 0).toBe(true);
    await loop.close();
  });

  it('of a real amount is counted, and reaches the ceiling', async () => {
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({}), reportingCost(0.6)], store, pool });
    expect(await loop.run({ agent, task: 'spend' })).toMatchObject({ status: 'HALT', reason: 'ERR_BUDGET', turns: 2, usage: { costUsd: 1.2 } });
    await loop.close();
  });
});
