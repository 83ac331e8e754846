/**
 * Agents given in code (to `run`, or by a plugin) are held to the same rules
 * as agent files, and a `run` the store refuses leaves nothing behind in the
 * controller that could answer another session's turns.
 */
import { createSandboxPool } from '@askloop/interpreter';
import { afterAll, describe, expect, it } from 'vitest';
import { createScriptedProvider } from '@askloop/providers';
import { builtinPlugin } from '../src/plugin/builtin-plugin.ts';
import { definePlugin } from '../src/plugin/plugin.ts';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));

describe('agents defined in code', () => {
  it.each([
    [{ maxTurns: 'three' }, 'ceilings.maxTurns'],
    [{ maxTurns: Number.NaN }, 'ceilings.maxTurns'],
    [{ maxTurns: 0 }, 'ceilings.maxTurns'],
    [{ maxTurn: 2 }, "unknown key 'maxTurn'"],
  ])('refuses ceilings %j before any session is stored (LOOP_AGENT_INVALID)', async (ceilings, named) => {
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "never"')] })], store, pool });
    const agent = { name: 'a', model: 'scripted:m', ceilings } as never;
    await expect(loop.run({ agent, task: 'x' })).rejects.toMatchObject({ code: 'LOOP_AGENT_INVALID', message: expect.stringContaining(named) });
    expect(await store.listSessions()).toEqual([]);
  });

  it("refuses a plugin's agent with a bad field when it is run", async () => {
    const agents = { bad: { name: 'bad', model: 'scripted:m', repair: -1 } };
    const loop = createAskLoop({ plugins: [testPlugin({ m: [] }, new Map(), agents)], store: createMemoryTranscriptStore(), pool });
    // Named: the fields alone did not say whose they were.
    await expect(loop.run({ agent: 'bad', task: 'x' })).rejects.toMatchObject({
      code: 'LOOP_AGENT_INVALID',
      message: "agent 'bad' (as its plugin defines it): invalid agent definition: repair: expected a whole number ≥ 0, got number -1",
    });
  });
});

describe('a cost ceiling', () => {
  it('is refused before anything is stored when the model has no prices: it could never be reached', async () => {
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "never"')] })], store, pool });
    const agent = { name: 'a', model: 'scripted:m', ceilings: { costUsd: 0.01 } };
    await expect(loop.run({ agent, task: 'x' })).rejects.toMatchObject({
      code: 'LOOP_AGENT_INVALID',
      // A plugin's provider: its prices are set where its plugin makes it, never in askloop.config.yaml's providers:,
      // which refuses any name but a built-in one (the message sent the user there before).
      message: "agent 'a': ceilings.costUsd (0.01) could never be reached: the model scripted:m has no prices in this host, so each of its calls costs $0 here; give the model prices where its provider is made (provider 'scripted' of plugin 'test' takes its prices where it is made: its prices setting, by model id, here 'm', as defineProvider({ settings: { prices } }) or createOpenAICompatibleProvider({ prices }) take it; for the askloop command, through the plugin's options when it offers one; askloop.config.yaml's providers: sets the built-in providers only) or bound the loop with ceilings.tokens instead",
    });
    expect(await store.listSessions()).toEqual([]);
    await loop.close();
  });

  it('of a built-in provider names the place its prices are set, by its name', async () => {
    const loop = createAskLoop({ plugins: [builtinPlugin()], store: createMemoryTranscriptStore(), pool });
    await expect(loop.run({ agent: { name: 'a', model: 'anthropic:claude-x', ceilings: { costUsd: 1 } }, task: 'x' })).rejects.toMatchObject({
      code: 'LOOP_AGENT_INVALID',
      message: expect.stringContaining(
        "give the model prices where its provider is made (its prices setting, by model id, here 'claude-x': builtinPlugin({ providerSettings: { anthropic: { prices } } }); for the askloop command, providers.anthropic.prices in askloop.config.yaml; for a plugin's provider of that name, where its plugin makes it) or bound",
      ),
    });
    await loop.close();
  });

  it('of an agent the session may reach by ask is refused before anything is stored, not when the child starts', async () => {
    // b asks c, whose cost ceiling its model (no prices) could never reach: the session of a, which asks b, is refused.
    const agents = {
      b: { name: 'b', model: 'scripted:m', asks: ['c'] },
      c: { name: 'c', model: 'scripted:m', ceilings: { costUsd: 0.5 } },
      elsewhere: { name: 'elsewhere', model: 'no-such-provider:m', ceilings: { costUsd: 0.5 } },
    };
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program('emit "never"')] }, new Map(), agents)], store, pool });
    await expect(loop.run({ agent: { name: 'a', model: 'scripted:m', asks: ['b'] }, task: 'x' })).rejects.toMatchObject({
      code: 'LOOP_AGENT_INVALID',
      message: expect.stringMatching(/^agent 'c' \(reachable by ask from 'a'\): ceilings\.costUsd \(0\.5\) could never be reached: the model scripted:m has no prices in this host/),
    });
    expect(await store.listSessions()).toEqual([]);
    // Not reachable (a may not ask at all here), or an agent whose provider is missing (its ask says so): not refused.
    await loop.create({ agent: { name: 'a', model: 'scripted:m', asks: ['b'], maxAskDepth: 0 }, task: 'x' });
    expect(await store.listSessions()).toHaveLength(1);
    await loop.create({ agent: { name: 'z', model: 'scripted:m', asks: ['elsewhere'] }, task: 'x' });
    expect(await store.listSessions()).toHaveLength(2);
    await loop.close();
  });

  it("takes a hand-built model that reports each call's cost itself (no prices field)", async () => {
    const gateway = definePlugin({
      name: 'gateway',
      specificationVersion: 'v1',
      providers: {
        gw: {
          name: 'gw',
          languageModel: (modelId: string) => ({
            provider: 'gw',
            modelId,
            generate: async () => ({ text: program('emit "billed"'), usage: { inputTokens: 10, outputTokens: 10 }, costUsd: 0.5, finishReason: 'stop' as const, latencyMs: 1, attempts: 1, raw: null, provider: 'gw', model: modelId, warnings: [] }),
          }),
        },
      },
    });
    const loop = createAskLoop({ plugins: [builtinPlugin(), gateway], store: createMemoryTranscriptStore(), pool });
    const result = await loop.run({ agent: { name: 'a', model: 'gw:m', ceilings: { costUsd: 1 } }, task: 'x' });
    expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_BUDGET', turns: 2, usage: { costUsd: 1 } });
    await loop.close();
  });

  it('halts the loop ERR_BUDGET once the priced calls reach it', async () => {
    const priced = definePlugin({
      name: 'priced',
      specificationVersion: 'v1',
      // 1,000 dollars a million tokens either way: each call of the scripted model (a few hundred tokens) costs cents.
      providers: { paid: createScriptedProvider({ name: 'paid', models: { m: [program('emit "one"'), program('emit "two"'), program('emit "three"')] }, prices: { m: { inputPerMillion: 1000, outputPerMillion: 1000 } } }) },
    });
    const loop = createAskLoop({ plugins: [builtinPlugin(), priced], store: createMemoryTranscriptStore(), pool });
    const result = await loop.run({ agent: { name: 'a', model: 'paid:m', ceilings: { costUsd: 0.0001 } }, task: 'x' });
    expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_BUDGET', turns: 1 });
    expect(result.usage.costUsd).toBeGreaterThan(0.0001);
    await loop.close();
  });
});

describe('a run the store refuses', () => {
  it('leaves the existing session with its own model', async () => {
    const models = { m1: [program('emit "<<<LOOP:DONE>>> answered by m1"')], m2: [program('emit "<<<LOOP:DONE>>> answered by m2"')] };
    const store = createMemoryTranscriptStore();
    const first = createAskLoop({ plugins: [testPlugin(models)], store, pool });
    const second = createAskLoop({ plugins: [testPlugin(models)], store, pool });
    await first.create({ agent: { name: 'one', model: 'scripted:m1' }, task: 't', sid: 'a' });
    await expect(second.run({ agent: { name: 'two', model: 'scripted:m2' }, task: 't', sid: 'a' })).rejects.toMatchObject({ code: 'LOOP_STORE_ERROR' });
    expect(await second.resume('a')).toMatchObject({ status: 'DONE', result: 'answered by m1' });
  });
});
