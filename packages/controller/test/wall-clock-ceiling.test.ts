/**
 * The loop's wall-clock ceiling bounds every part of a turn: a model call
 * still answering when it runs out is cut (`LOOP_WALL_CLOCK_SPENT`), and a
 * run gets only what the turns before and this turn's model call left. Replays
 * end the same way from the recorded times.
 */
import { createSandboxPool } from '@askloop/interpreter';
import { afterAll, describe, expect, it } from 'vitest';
import { WALL_CLOCK_SPENT } from '../src/loop/ask-model.ts';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { definePlugin } from '../src/plugin/plugin.ts';
import { defineTool, defineToolPack } from '../src/index.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());
const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));
const agent = { name: 'worker', model: 'scripted:m', policy: { allow: ['tool.test.*'] } };

/** A plugin whose hand-built model (no defineProvider) ignores its signal and never answers. */
const hangingPlugin = definePlugin({
  name: 'hanging',
  specificationVersion: 'v1',
  providers: { hang: { name: 'hang', languageModel: (modelId: string) => ({ provider: 'hang', modelId, generate: () => new Promise<never>(() => undefined) }) } },
});

describe('a hand-built model that ignores its signal', () => {
  it("is cut by the wall-clock ceiling, and by close(): neither the run nor close() hangs with it", async () => {
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({ m: [] }), hangingPlugin], store, pool });
    const timed = await loop.run({ agent: { ...agent, model: 'hang:m', ceilings: { wallMs: 200 } }, task: 'hangs' });
    expect(timed).toMatchObject({ status: 'HALT', reason: 'ERR_TIMEOUT', turns: 1 });
    const pending = loop.run({ agent: { ...agent, model: 'hang:m' }, task: 'hangs until closed' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await loop.close();
    expect(await pending).toMatchObject({ status: 'HALT', reason: 'ERR_CANCELLED' });
  });
});

describe("the loop's wall-clock ceiling", () => {
  it('cuts a model call that has not reached END when the ceiling runs out, and replays the same', async () => {
    const store = createMemoryTranscriptStore();
    // Would answer DONE after 5 s: only the cut keeps it from finishing.
    const loop = createAskLoop({ plugins: [testPlugin({ m: [{ text: program('emit "<<<LOOP:DONE>>> late"'), delayMs: 5000 }] })], store, pool });
    const result = await loop.run({ agent: { ...agent, ceilings: { wallMs: 200 } }, task: 'slow model' });
    expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_TIMEOUT', turns: 1 });
    const [turn] = await store.listTurns(result.sid);
    expect(turn?.failure).toMatchObject({ code: WALL_CLOCK_SPENT, kind: 'timeout', message: expect.stringContaining('ceiling of 200 ms') });
    expect(turn?.reply).toBeUndefined();
    expect(await loop.replay(result.sid)).toMatchObject({ matched: true, divergence: null, turns: 1 });
    await loop.close();
  });

  it("caps the run by what the turn's model call left of the ceiling, live and replayed", async () => {
    const store = createMemoryTranscriptStore();
    // 700 ms of model, then a program that needs 600 ms more: over a 1,000 ms ceiling, so its run is cut.
    const reply = { text: program('call tool.test.Sleep(600)', 'emit "<<<LOOP:DONE>>> in time"'), delayMs: 700 };
    const loop = createAskLoop({ plugins: [testPlugin({ m: [reply] })], store, pool });
    const result = await loop.run({ agent: { ...agent, ceilings: { wallMs: 1000 } }, task: 'slow run' });
    expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_TIMEOUT', turns: 1 });
    const [turn] = await store.listTurns(result.sid);
    expect(turn?.failure).toMatchObject({ kind: 'timeout', code: 'SCRIPT_TIMEOUT' });
    expect(turn?.emits).toEqual([]);
    // Replayed, the model answers at once: the recorded model time still caps the run.
    expect(await loop.replay(result.sid)).toMatchObject({ matched: true, divergence: null, turns: 1 });
    await loop.close();
  });

  it("halts after the turn that spent it, not in the next turn's model call with nothing left, live and replayed", async () => {
    const store = createMemoryTranscriptStore();
    // The first turn's program takes 300 ms on the loop's clock (its tool moves the clock on): over the 250 ms
    // ceiling, though its model call and run each ended within what they were given. A second turn would answer DONE.
    let skew = 0;
    const clock = { now: () => Date.now() + skew };
    const skip = definePlugin({
      name: 'skip',
      specificationVersion: 'v1',
      toolPacks: [defineToolPack('skip', [defineTool({ name: 'tool.skip.Ahead', description: 'Moves the clock on.', args: [], returns: 'nil' }, () => { skew += 300; return null; })])],
    });
    const replies = [program('call tool.skip.Ahead()', 'emit "working"'), program('emit "<<<LOOP:DONE>>> too late"')];
    const loop = createAskLoop({ plugins: [testPlugin({ m: replies }), skip], store, pool, clock });
    const result = await loop.run({ agent: { ...agent, policy: { allow: ['tool.skip.*'] }, ceilings: { wallMs: 250 } }, task: 'slow first turn' });
    expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_TIMEOUT', turns: 1, message: "the loop's wall-clock ceiling of 250 ms is spent" });
    expect(await store.listTurns(result.sid)).toHaveLength(1);
    expect(await loop.replay(result.sid)).toMatchObject({ matched: true, divergence: null, turns: 1 });
    await loop.close();
  });
});
