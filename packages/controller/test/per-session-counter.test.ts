/**
 * A session's per-session call limit (`policy.limits.perSession`) holds whoever
 * steps it: a replay in between does not leave this controller a counter that
 * counts nothing, and several controllers stepping one session in turn (the
 * worker mode) each count what the others did; a controller stepping alone
 * reads no earlier turns for it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandboxPool } from '@askloop/interpreter';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { createSqliteTranscriptStore } from '../src/store/sqlite-transcript-store.ts';
import type { TranscriptStore } from '../src/store/transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 2 });
const dir = mkdtempSync(join(tmpdir(), 'askloop-counter-'));
afterAll(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});

const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));
const agent = { name: 'worker', model: 'scripted:m', policy: { allow: ['tool.str.*'], limits: { perSession: 3 } } };
const overLimit = { status: 'HALT', reason: 'ERR_PERMISSIONS', message: expect.stringContaining('[POLICY_CALL_LIMIT]') };

/** `store` with its `listTurns` calls counted. */
function countingReads(store: TranscriptStore): { readonly store: TranscriptStore; readonly reads: () => number } {
  let reads = 0;
  return {
    store: { ...store, listTurns: (sid) => ((reads += 1), store.listTurns(sid)) },
    reads: () => reads,
  };
}

describe('per-session call limit after a replay', () => {
  it('still holds when a controller without the session counter replays it before stepping it', async () => {
    const store = createMemoryTranscriptStore();
    const twoCalls = program('emit tool.str.ToUpper("a")', 'emit tool.str.ToUpper("b")');
    const first = createAskLoop({ plugins: [testPlugin({ m: [twoCalls, { text: twoCalls, delayMs: 5_000 }] })], store, pool });
    const sid = await first.create({ agent, task: 'limits', sid: 's2' });
    expect(await first.step(sid)).toMatchObject({ status: 'RUNNING', usage: { toolCalls: 2 } });
    // Turn 2 is cancelled while the model answers: the session can go on (ERR_CANCELLED is resumable).
    const cancel = new AbortController();
    setTimeout(() => cancel.abort(), 50);
    expect(await first.step(sid, { signal: cancel.signal })).toMatchObject({ status: 'HALT', reason: 'ERR_CANCELLED' });
    await first.close();

    // Another host: a replay (which counts its own calls), then the step: turn 2's second call is the fourth.
    const second = createAskLoop({ plugins: [testPlugin({ m: [twoCalls] })], store, pool });
    await second.replay(sid);
    expect(await second.step(sid)).toMatchObject(overLimit);
    const turns = await store.listTurns(sid);
    expect(turns[1]?.toolCalls.map((call) => call.error?.code ?? 'ok')).toEqual(['ok', 'SCRIPT_TOOL_DENIED']);
    await second.close();
  });
});

describe('replay and the per-session counters', () => {
  it("leaves this controller's counters as they were: a replay does not push a session's counter out of the cache", async () => {
    const memory = createMemoryTranscriptStore();
    let readsOfX = 0;
    const store: TranscriptStore = { ...memory, listTurns: (sid) => ((readsOfX += sid === 'x' ? 1 : 0), memory.listTurns(sid)) };
    const replies = [1, 2, 3].map((n) => program(`emit tool.str.ToUpper("t${n}")`));
    // Room for one session's counter: x's.
    const loop = createAskLoop({ plugins: [testPlugin({ m: replies })], store, pool, sessionCacheSize: 1 });
    await loop.create({ agent, task: 'x', sid: 'x' });
    await loop.step('x');
    // Session y, run by another host; this one replays it.
    const other = createAskLoop({ plugins: [testPlugin({ m: replies })], store: memory, pool });
    await other.create({ agent, task: 'y', sid: 'y' });
    await other.step('y');
    await other.close();
    expect(await loop.replay('y')).toMatchObject({ matched: true, turns: 1 });
    const before = readsOfX;
    // x's counter is still kept and current: its next step reads none of its turns.
    expect(await loop.step('x')).toMatchObject({ status: 'RUNNING', turns: 2 });
    expect(readsOfX - before).toBe(0);
    await loop.close();
  });
});

describe('per-session call limit with several hosts stepping one session', () => {
  const storesFor = {
    memory: () => {
      const store = createMemoryTranscriptStore();
      return [store, store] as const;
    },
    // Two connections to one file, as two hosts have.
    sqlite: () => {
      const file = join(dir, `hosts-${Math.random().toString(36).slice(2)}.db`);
      return [createSqliteTranscriptStore(file), createSqliteTranscriptStore(file)] as const;
    },
  };

  it.each(Object.keys(storesFor) as (keyof typeof storesFor)[])('counts the calls the other host made since this one last stepped it (%s store)', async (kind) => {
    const [storeA, storeB] = storesFor[kind]();
    const replies = [1, 2, 3, 4].map((n) => program(`emit tool.str.ToUpper("t${n}")`));
    const a = countingReads(storeA);
    const hostA = createAskLoop({ plugins: [testPlugin({ m: replies })], store: a.store, pool });
    const hostB = createAskLoop({ plugins: [testPlugin({ m: replies.slice(1) })], store: storeB, pool });
    const sid = await hostA.create({ agent, task: 'workers' });
    expect(await hostA.step(sid)).toMatchObject({ status: 'RUNNING', turns: 1 });
    expect(await hostB.step(sid)).toMatchObject({ status: 'RUNNING', turns: 2 });
    expect(await hostB.step(sid)).toMatchObject({ status: 'RUNNING', turns: 3 });
    const before = a.reads();
    // Host A's counter still says 1: the fourth call is refused all the same.
    expect(await hostA.step(sid)).toMatchObject({ ...overLimit, turns: 4 });
    // It read the turns once to count them again.
    expect(a.reads() - before).toBe(1);
    await hostA.close();
    await hostB.close();
  });

  it('reads no earlier turns for the count while one host steps the session alone', async () => {
    const { store, reads } = countingReads(createMemoryTranscriptStore());
    const replies = [1, 2, 3, 4].map((n) => program(`emit tool.str.ToUpper("t${n}")`));
    const loop = createAskLoop({ plugins: [testPlugin({ m: replies })], store, pool });
    const sid = await loop.create({ agent, task: 'alone' });
    expect(await loop.step(sid)).toMatchObject({ status: 'RUNNING', turns: 1 });
    // (The first step of a new session may read its turns for other reasons: its row has no tally yet.)
    const before = reads();
    for (const turns of [2, 3]) expect(await loop.step(sid)).toMatchObject({ status: 'RUNNING', turns });
    expect(await loop.step(sid)).toMatchObject(overLimit);
    expect(reads() - before).toBe(0);
    await loop.close();
  });
});
