/**
 * `resume` of a turn cancelled while a write was out runs its program again
 * and records that run's calls in `toolCalls` — and keeps the call the
 * stopped run left unfinished (it may have acted) in `earlierUnfinished`,
 * marked with the run that made it, across several cancels and a host that
 * died after it reopened the turn. Replay, which runs each turn once,
 * matches such a session. Real sandbox, scripted model, a slow write tool
 * that acts at once and then waits. Before, the re-run's calls replaced the
 * record's and the unfinished call was gone.
 */
import { createSandboxPool } from '@askloop/interpreter';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import type { TurnRecord } from '../src/loop/turn-record.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import type { TranscriptStore } from '../src/store/transcript-store.ts';
import { envelope, testPlugin, type EffectLog } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());
const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));
const agent = { name: 'worker', model: 'scripted:m', policy: { allow: ['tool.test.*', 'tool.str.*'] } };
/** One call that ends, then the slow write (bumps its counter at once, returns after 1.5 s), then DONE. */
const reply = program('emit tool.str.ToUpper("a")', 'emit tool.test.SlowBump("k", 1500)', 'emit "<<<LOOP:DONE>>> ok"');
const unfinishedWrite = (run: number) => ({
  run,
  index: 1,
  name: 'tool.test.slowbump',
  displayName: 'tool.test.SlowBump',
  args: ['k', 1500],
  durationMs: expect.any(Number),
  unfinished: { effect: 'write', note: expect.stringContaining('may have acted') },
});

/** A signal that aborts once the slow write has acted `times` times in all (it is out then). */
function cancelWhenBumped(effects: EffectLog, times: number): AbortSignal {
  const cancel = new AbortController();
  const timer = setInterval(() => {
    if ((effects.get('k') ?? 0) >= times) {
      clearInterval(timer);
      cancel.abort();
    }
  }, 5);
  return cancel.signal;
}

describe('resume of a turn cancelled while a write was out', () => {
  it("keeps each stopped run's unfinished call in earlierUnfinished, apart from the new run's calls; replay matches", async () => {
    const store = createMemoryTranscriptStore();
    const effects: EffectLog = new Map();
    const loop = createAskLoop({ plugins: [testPlugin({ m: [reply] }, effects)], store, pool });
    const first = await loop.run({ agent, task: 'slow write', signal: cancelWhenBumped(effects, 1) });
    expect(first).toMatchObject({ status: 'HALT', reason: 'ERR_CANCELLED' });
    const { sid } = first;
    // Run 2 is cancelled in the same call (the write acts again: the stopped one made no idempotence record).
    expect(await loop.resume(sid, { signal: cancelWhenBumped(effects, 2) })).toMatchObject({ status: 'HALT', reason: 'ERR_CANCELLED' });
    const [second] = await store.listTurns(sid);
    expect(second?.earlierUnfinished).toEqual([unfinishedWrite(1)]);
    expect(second?.toolCalls.at(-1)).toMatchObject({ name: 'tool.test.slowbump', unfinished: { effect: 'write' } });
    // Run 3 ends: its calls are its own, and both earlier runs' unfinished writes stay, oldest first.
    expect(await loop.resume(sid)).toMatchObject({ status: 'DONE', result: 'ok' });
    const [turn] = await store.listTurns(sid);
    expect(turn).toMatchObject({ reruns: 2, usage: { toolCalls: 2 } });
    expect(turn?.toolCalls.map((call) => ({ name: call.name, result: call.result, unfinished: call.unfinished }))).toEqual([
      { name: 'tool.str.toupper', result: 'A', unfinished: undefined },
      { name: 'tool.test.slowbump', result: 3, unfinished: undefined },
    ]);
    expect(turn?.earlierUnfinished).toEqual([unfinishedWrite(1), unfinishedWrite(2)]);
    // Replay runs the turn once, as its last run went: the earlier runs' calls are not its to make or compare.
    expect(await loop.replay(sid)).toMatchObject({ matched: true, divergence: null, turns: 1 });
    await loop.close();
  });

  it('keeps it when the host that reopened the turn died before the turn ran, and another host went on', async () => {
    const store = createMemoryTranscriptStore();
    const effects: EffectLog = new Map();
    const host = createAskLoop({ plugins: [testPlugin({ m: [reply] }, effects)], store, pool });
    const { sid } = await host.run({ agent, task: 'slow write', signal: cancelWhenBumped(effects, 1) });
    await host.close();
    // A host that dies as its resume starts the run: the reopened record (phase asking) is the last thing it saved.
    let dead = false;
    const dying: TranscriptStore = {
      ...store,
      saveTurn: async (record: TurnRecord, session) => {
        if (dead) throw Object.assign(new Error('the host is gone'), { code: 'LOOP_STORE_ERROR' });
        await store.saveTurn(record, session);
        if (record.phase === 'asking') dead = true;
      },
    };
    const doomed = createAskLoop({ plugins: [testPlugin({ m: [reply] }, effects)], store: dying, pool });
    await expect(doomed.resume(sid)).rejects.toThrow();
    await doomed.close();
    expect((await store.lastTurn(sid))).toMatchObject({ phase: 'asking', earlierUnfinished: [unfinishedWrite(1)] });
    const next = createAskLoop({ plugins: [testPlugin({ m: [reply] }, effects)], store, pool });
    expect(await next.resume(sid)).toMatchObject({ status: 'DONE', result: 'ok' });
    expect(await store.lastTurn(sid)).toMatchObject({ phase: 'decided', reruns: 1, earlierUnfinished: [unfinishedWrite(1)], toolCalls: [{ result: 'A' }, { result: 2 }] });
    await next.close();
  });
});

describe('a per-session call limit and a turn run again after a cancel', () => {
  // The slow write may be called once per session. The stopped run's call acted (and made no idempotence record, so
  // the run that replaces it acts again): it counts, and the new run's call is refused. It used to be left out of the
  // count once `resume` reopened the turn, and the write acted twice.
  const limited = { ...agent, policy: { ...agent.policy, limits: { tools: { 'tool.test.SlowBump': { perSession: 1 } } } } };

  it('counts the unfinished call of the stopped run: the write does not act again', async () => {
    const store = createMemoryTranscriptStore();
    const effects: EffectLog = new Map();
    const loop = createAskLoop({ plugins: [testPlugin({ m: [reply] }, effects)], store, pool });
    const first = await loop.run({ agent: limited, task: 'slow write', signal: cancelWhenBumped(effects, 1) });
    expect(first).toMatchObject({ status: 'HALT', reason: 'ERR_CANCELLED' });
    expect(await loop.resume(first.sid)).toMatchObject({ status: 'HALT', reason: 'ERR_PERMISSIONS', message: expect.stringContaining('[POLICY_CALL_LIMIT]') });
    expect(effects.get('k')).toBe(1);
    const [turn] = await store.listTurns(first.sid);
    expect(turn?.earlierUnfinished).toEqual([unfinishedWrite(1)]);
    expect(turn?.toolCalls.at(-1)).toMatchObject({ name: 'tool.test.slowbump', error: { code: 'SCRIPT_TOOL_DENIED' } });
    await loop.close();
  });

  it('counts it on another host too, which rebuilds the count from the stored turns', async () => {
    const store = createMemoryTranscriptStore();
    const effects: EffectLog = new Map();
    const host = createAskLoop({ plugins: [testPlugin({ m: [reply] }, effects)], store, pool });
    const { sid } = await host.run({ agent: limited, task: 'slow write', signal: cancelWhenBumped(effects, 1) });
    await host.close();
    const next = createAskLoop({ plugins: [testPlugin({ m: [reply] }, effects)], store, pool });
    expect(await next.resume(sid)).toMatchObject({ status: 'HALT', reason: 'ERR_PERMISSIONS' });
    expect(effects.get('k')).toBe(1);
    await next.close();
  });
});

describe('a per-turn call limit and a turn run again after a cancel', () => {
  it('counts the unfinished call of the stopped run in the turn: the write does not act again', async () => {
    const store = createMemoryTranscriptStore();
    const effects: EffectLog = new Map();
    const perTurn = { ...agent, policy: { ...agent.policy, limits: { tools: { 'tool.test.SlowBump': { perTurn: 1 } } } } };
    const loop = createAskLoop({ plugins: [testPlugin({ m: [reply] }, effects)], store, pool });
    const first = await loop.run({ agent: perTurn, task: 'slow write', signal: cancelWhenBumped(effects, 1) });
    expect(first).toMatchObject({ status: 'HALT', reason: 'ERR_CANCELLED' });
    expect(await loop.resume(first.sid)).toMatchObject({ status: 'HALT', reason: 'ERR_PERMISSIONS', message: expect.stringContaining('[POLICY_CALL_LIMIT]') });
    expect(effects.get('k')).toBe(1);
    await loop.close();
  });
});
