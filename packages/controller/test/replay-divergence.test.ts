/** Replay reports where a re-run stops matching its recording, including a tool called with other arguments. */
import { createSandboxPool } from '@askloop/interpreter';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope, testPlugin, type EffectLog } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());
const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));
const agent = { name: 'worker', model: 'scripted:m', policy: { allow: ['tool.test.*', 'tool.str.*'] } };

describe('replay', () => {
  it('names the turn whose tool call had other arguments when recorded, instead of answering it with the recorded result', async () => {
    const effects: EffectLog = new Map();
    const store = createMemoryTranscriptStore();
    const replies = { m: [program('set n = tool.test.Bump("a")', 'emit "bumped"'), program('emit "<<<LOOP:DONE>>> ok"')] };
    const loop = createAskLoop({ plugins: [testPlugin(replies, effects)], store, pool });
    const result = await loop.run({ agent, task: 'bump' });
    expect(result).toMatchObject({ status: 'DONE', turns: 2 });
    expect((await loop.replay(result.sid)).matched).toBe(true);

    // The recording says turn 1 bumped "b": the program (which bumps "a") no longer does what was recorded.
    const [first] = await store.listTurns(result.sid);
    if (first === undefined) throw new Error('no turn 1');
    await store.saveTurn({ ...first, toolCalls: first.toolCalls.map((call) => ({ ...call, args: ['b'] })) });
    const report = await loop.replay(result.sid);
    expect(report.matched).toBe(false);
    // The replayed call fails (LOOP_REPLAY_DIVERGED), so turn 1's digest is the first field that differs.
    expect(report.divergence).toMatchObject({ turnIndex: 1, field: 'digest' });
    await loop.close();
  });

  it('matches a recording whose reply cost was saved as null (an Infinity cost, before costs were checked)', async () => {
    const store = createMemoryTranscriptStore();
    const replies = { m: [program('emit "<<<LOOP:DONE>>> ok"')] };
    const loop = createAskLoop({ plugins: [testPlugin(replies, new Map())], store, pool });
    const result = await loop.run({ agent, task: 'x' });
    const [first] = await store.listTurns(result.sid);
    if (first?.reply === undefined) throw new Error('no reply in turn 1');
    // JSON kept an Infinity cost as null; replayed as a cost, the check of a reply's costUsd refused it.
    await store.saveTurn({ ...first, reply: { ...first.reply, costUsd: null as unknown as number } });
    expect(await loop.replay(result.sid)).toMatchObject({ matched: true, divergence: null });
    await loop.close();
  });

  it('names the turn whose recording holds a call the replayed program did not make (walkthrough: it matched)', async () => {
    const store = createMemoryTranscriptStore();
    const replies = { m: [program('set n = tool.test.Bump("a")', 'emit "bumped"'), program('emit "<<<LOOP:DONE>>> ok"')] };
    const loop = createAskLoop({ plugins: [testPlugin(replies, new Map())], store, pool });
    const result = await loop.run({ agent, task: 'bump' });
    const [first] = await store.listTurns(result.sid);
    if (first === undefined || first.toolCalls[0] === undefined) throw new Error('no call in turn 1');
    // The recording says turn 1 also called tool.test.Bump a second time (a write the replayed program never makes).
    await store.saveTurn({ ...first, toolCalls: [...first.toolCalls, { ...first.toolCalls[0], index: 1 }] });
    const report = await loop.replay(result.sid);
    expect(report).toMatchObject({ matched: false, divergence: { turnIndex: 1, field: 'toolCalls', recorded: ['tool.test.bump', 'tool.test.bump'], replayed: ['tool.test.bump'] } });
    await loop.close();
  });
});

describe('replay of a loop that spent its wall-clock ceiling', () => {
  it('takes each turn\'s time from the recording, so the ceiling halts the replayed loop where it halted the live one', async () => {
    const store = createMemoryTranscriptStore();
    // A model that takes 150 ms a reply: with a 250 ms ceiling the loop's wall clock is spent after turn 2.
    const slow = async () => {
      await new Promise((resolve) => setTimeout(resolve, 150));
      return program('emit "working"');
    };
    const loop = createAskLoop({ plugins: [testPlugin({ m: slow })], store, pool });
    const result = await loop.run({ agent: { ...agent, ceilings: { wallMs: 250, maxTurns: 6 } }, task: 'slow' });
    expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_TIMEOUT' });
    const turns = await store.listTurns(result.sid);
    expect(turns.length).toBeLessThan(6);
    // Replayed, the recorded model answers at once: only the recorded times can spend the ceiling the same way.
    expect(await loop.replay(result.sid)).toMatchObject({ matched: true, divergence: null, turns: turns.length });
    await loop.close();
  });
});

describe('replay without the provider of the agent\'s model', () => {
  it('matches: the recorded replies stand in for the model, so a session run on a script replays without it', async () => {
    const store = createMemoryTranscriptStore();
    const replies = { m: [program('emit "one"'), program('emit "<<<LOOP:DONE>>> " + tool.str.ToUpper("ok")')] };
    const live = createAskLoop({ plugins: [testPlugin(replies)], store, pool });
    const result = await live.run({ agent, task: 'twice' });
    expect(result).toMatchObject({ status: 'DONE', result: 'OK', turns: 2 });
    await live.close();
    // Another host over the same store whose scripted provider has no model "m" (as `askloop replay` without --script).
    const other = createAskLoop({ plugins: [testPlugin({ other: [] })], store, pool });
    expect(await other.replay(result.sid)).toMatchObject({ matched: true, divergence: null, turns: 2 });
    await other.close();
  });
});

describe('replay of a turn whose tool call failed', () => {
  it('matches: the recorded failure reaches the program with the same text as when it ran', async () => {
    const store = createMemoryTranscriptStore();
    const replies = { m: [program('emit tool.json.Parse("{bad")'), program('emit "<<<LOOP:DONE>>> ok"')] };
    const loop = createAskLoop({ plugins: [testPlugin(replies)], store, pool });
    const result = await loop.run({ agent: { ...agent, policy: { allow: ['tool.json.*', 'tool.str.*'] }, repair: 1 }, task: 'parse' });
    expect(result).toMatchObject({ status: 'DONE', turns: 2 });
    const [first] = await store.listTurns(result.sid);
    expect(first?.failure).toMatchObject({ code: 'SCRIPT_TOOL_ARGUMENTS' });
    expect(await loop.replay(result.sid)).toMatchObject({ matched: true, divergence: null, turns: 2 });
    await loop.close();
  });
});
