/**
 * A tool call still out when the run ends — the caller's abort, the loop's
 * wall-clock ceiling — stays in the turn record, in its place, marked
 * unfinished with the tool's declared effect (a write may have acted), and
 * the run's fuel so far is kept. Real sandbox, scripted model, a slow write
 * tool that acts at once and then waits. Before, the call was left out of
 * `toolCalls` (though `usage.toolCalls` counted it) and `usage.fuel` read 0.
 */
import { createSandboxPool } from '@askloop/interpreter';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import type { LoopEvent } from '../src/events/loop-event.ts';
import type { RecordedToolCall, TurnRecord } from '../src/loop/turn-record.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { TOOL_CALLS_VERSION } from '../src/loop/tool-calls-version.ts';
import { envelope, testPlugin, type EffectLog } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());
const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));
const agent = { name: 'worker', model: 'scripted:m', policy: { allow: ['tool.test.*', 'tool.str.*'] } };
/** Some work before the calls, so the run has spent fuel when it is cut. */
const work = ['set n = 0', 'for each i in [1, 2, 3, 4, 5, 6, 7, 8]', '  set n = n + i', 'endfor'];
/** The turn's calls: one that ends, then the slow write, which bumps its counter at once and returns after 30 s. */
const calls = ['emit tool.str.ToUpper("a")', 'emit tool.test.SlowBump("k", 30000)', 'emit "never"'];
const unfinishedWrite = {
  index: 1,
  name: 'tool.test.slowbump',
  displayName: 'tool.test.SlowBump',
  args: ['k', 30000],
  unfinished: { effect: 'write', note: expect.stringContaining('may have acted') },
};

describe('a tool call still out when the run ends', () => {
  it("is kept, unfinished, when the loop's signal cancels the run mid-call; replay cancels it in the same call", async () => {
    const store = createMemoryTranscriptStore();
    const effects: EffectLog = new Map();
    const cancel = new AbortController();
    const events: LoopEvent[] = [];
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program(...work, ...calls)] }, effects)], store, pool, onEvent: (event) => events.push(event) });
    const running = loop.run({ agent, task: 'slow write', signal: cancel.signal });
    // The write has acted (its counter moved) and is waiting: cancel now, mid-call.
    await expect.poll(() => effects.get('k'), { timeout: 10_000 }).toBe(1);
    cancel.abort();
    expect(await running).toMatchObject({ status: 'HALT', reason: 'ERR_CANCELLED' });
    const [turn] = await store.listTurns((await running).sid);
    expect(turn?.failure).toMatchObject({ code: 'SCRIPT_ABORTED', kind: 'cancelled' });
    expect(turn?.toolCalls).toEqual([
      expect.objectContaining({ index: 0, name: 'tool.str.toupper', result: 'A' }),
      expect.objectContaining(unfinishedWrite),
    ]);
    const unfinished = turn?.toolCalls[1];
    expect(unfinished).not.toHaveProperty('result');
    expect(unfinished).not.toHaveProperty('error');
    expect(turn?.usage.toolCalls).toBe(2);
    // The fuel the run spent before it was cut (the loop above, the first call), not 0.
    expect(turn?.usage.fuel).toBeGreaterThan(0);
    // Announced as it is recorded.
    expect(events.filter((event) => event.type === 'tool-call').map((event) => (event.type === 'tool-call' ? event.call : undefined))).toEqual(turn?.toolCalls);
    expect(await loop.replay((await running).sid)).toMatchObject({ matched: true, divergence: null, turns: 1 });
    expect(effects.get('k')).toBe(1);
    await loop.close();
  });

  it("is kept, unfinished, when the loop's wall-clock ceiling ends the run mid-call, and replays the same", async () => {
    const store = createMemoryTranscriptStore();
    const effects: EffectLog = new Map();
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program(...work, ...calls)] }, effects)], store, pool });
    const result = await loop.run({ agent: { ...agent, ceilings: { wallMs: 1500 } }, task: 'slow write, little time' });
    expect(result).toMatchObject({ status: 'HALT', reason: 'ERR_TIMEOUT' });
    const [turn] = await store.listTurns(result.sid);
    expect(turn?.failure).toMatchObject({ code: 'SCRIPT_TIMEOUT', kind: 'timeout' });
    expect(turn?.toolCalls).toEqual([
      expect.objectContaining({ index: 0, name: 'tool.str.toupper', result: 'A' }),
      expect.objectContaining(unfinishedWrite),
    ]);
    // The tool host gave up on it at the run's deadline, just before the run ended out of time: what it said is kept.
    expect(turn?.toolCalls[1]?.error?.message).toContain('[TOOL_TIMEOUT]');
    expect(turn?.usage).toMatchObject({ toolCalls: 2 });
    expect(turn?.usage.fuel).toBeGreaterThan(0);
    expect(effects.get('k')).toBe(1);
    expect(await loop.replay(result.sid)).toMatchObject({ matched: true, divergence: null, turns: 1 });
    // A record from before unfinished calls were kept (no toolCallsVersion; the call shown failed, unmarked, or left
    // out) replays the same.
    const { unfinished: _unfinished, ...unmarked } = turn?.toolCalls[1] as RecordedToolCall;
    const { toolCallsVersion: _version, ...older } = turn as TurnRecord;
    await store.saveTurn({ ...older, toolCalls: [turn?.toolCalls[0] as RecordedToolCall, unmarked] });
    expect(await loop.replay(result.sid)).toMatchObject({ matched: true, divergence: null, turns: 1 });
    await store.saveTurn({ ...older, toolCalls: [turn?.toolCalls[0] as RecordedToolCall] });
    expect(await loop.replay(result.sid)).toMatchObject({ matched: true, divergence: null, turns: 1 });
    await loop.close();
  });

  it('in a replay of a recording made since, that timed out while it computed, is a divergence (it was hidden as an old recording)', async () => {
    const store = createMemoryTranscriptStore();
    const loop = createAskLoop({ plugins: [testPlugin({ m: [program(...work, ...calls)] })], store, pool });
    const result = await loop.run({ agent: { ...agent, ceilings: { wallMs: 1500 } }, task: 'slow write, little time' });
    const [turn] = await store.listTurns(result.sid);
    expect(turn).toMatchObject({ failure: { kind: 'timeout' }, toolCallsVersion: TOOL_CALLS_VERSION });
    // The same turn as a run that timed out while it computed after its first call records it: no call out. Its replay
    // makes a second call and times out in it instead: that is not the recording.
    const computed: TurnRecord = { ...(turn as TurnRecord), toolCalls: [turn?.toolCalls[0] as RecordedToolCall], usage: { ...(turn as TurnRecord).usage, toolCalls: 1 } };
    await store.saveTurn(computed);
    const report = await loop.replay(result.sid);
    expect(report).toMatchObject({ matched: false, divergence: { turnIndex: 1 } });
    expect(report.divergence?.replayedFailure?.message).toContain('LOOP_REPLAY_DIVERGED');
    await loop.close();
  });
});
