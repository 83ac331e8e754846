/**
 * A host killed at every save point of every conformance case: the store
 * write number k commits, and the host is dead from then on (every later call
 * of its store fails); a new host on the same store (and the same tools'
 * stores) takes over — `resume`, or the pending approval answered again —
 * until the session ends. Whatever the save it died after, the session must
 * end exactly as the run that never crashed: the same decisions, records,
 * counters, tally and tool effects. The model answers by turn (read from the
 * budget line), with the replies the uninterrupted run used for that turn, so
 * a new host asks again only what was never saved. On the memory store and on
 * a SQLite file (its tally column and shared system texts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSandboxPool } from '@askloop/interpreter';
import type { ScriptedReply, ScriptedTurn } from '@askloop/providers';
import { openSqliteStore, type SqliteToolStore } from '@askloop/tools';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentDefinition } from '../src/agent/agent-definition.ts';
import type { LoopResult } from '../src/ask-loop.ts';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { isResumableHalt } from '../src/decide/halt-reason.ts';
import { tallyOf } from '../src/decide/loop-tally.ts';
import type { TurnRecord } from '../src/loop/turn-record.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { createSqliteTranscriptStore } from '../src/store/sqlite-transcript-store.ts';
import type { TranscriptStore } from '../src/store/transcript-store.ts';
import { expandReplies, testPlugin, type CaseReply, type EffectLog } from './test-plugin.ts';
import { CONFORMANCE_CASES, readCaseFile } from './conformance/conformance-cases.ts';

const cases = CONFORMANCE_CASES;
const read = readCaseFile;

const pool = createSandboxPool({ workers: 2 });
const dir = mkdtempSync(join(tmpdir(), 'askloop-crash-points-'));
afterAll(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});
let files = 0;
/** The stores the hosts share: the runner is the same, only the store differs. */
const stores: Record<string, () => TranscriptStore> = {
  memory: () => createMemoryTranscriptStore(),
  // Every step without the row's tally (as after an upgrade): rebuilt from the records each time, the same outcome.
  'memory, tally never read': () => {
    const store = createMemoryTranscriptStore();
    return {
      ...store,
      async getSession(sid) {
        const session = await store.getSession(sid);
        if (session === undefined) return undefined;
        const { tally: _tally, ...untallied } = session;
        return untallied;
      },
    };
  },
  sqlite: () => createSqliteTranscriptStore(join(dir, `crash-${(files += 1)}.db`)),
};

const turnOf = (turn: ScriptedTurn): number => Number(/Budget: turn (\d+) of/.exec(turn.system?.slice(turn.system.lastIndexOf('Budget: ')) ?? '')?.[1] ?? 0);

class HostKilled extends Error {}

/** The shared store as one host sees it: after its `crashAfter`-th write commits, that host is dead. */
function hostStore(store: TranscriptStore, crashAfter: number | undefined, writes: { count: number }): TranscriptStore {
  let dead = false;
  const alive = <A extends unknown[], R>(fn: (...args: A) => Promise<R>, write = false) => async (...args: A): Promise<R> => {
    if (dead) throw new HostKilled('the host is dead');
    const result = await fn.apply(store, args);
    if (write) {
      writes.count += 1;
      if (writes.count === crashAfter) {
        dead = true;
        throw new HostKilled(`host killed after write ${writes.count}`);
      }
    }
    return result;
  };
  // No lease methods: the dead host's lease would only make the next host wait.
  return {
    createSession: alive(store.createSession),
    getSession: alive(store.getSession),
    updateSession: alive(store.updateSession, true),
    listSessions: alive(store.listSessions),
    saveTurn: alive(store.saveTurn, true),
    listTurns: alive(store.listTurns),
    lastTurn: alive(store.lastTurn),
    close: async () => {},
  };
}

const pendingAt = (last: TurnRecord | undefined): number | undefined =>
  last?.phase === 'awaiting-approval' || (last?.phase === 'decided' && last.decision?.kind === 'PAUSE' && last.decision.reason === 'V1_AWAIT' && last.approval === undefined) ? last.turnIndex : undefined;

interface Outcome {
  readonly result: LoopResult;
  readonly records: readonly TurnRecord[];
  readonly session: unknown;
  readonly effects: Record<string, number>;
  readonly writes: number;
}

/** Runs case `name` to its end, killing the host after write `crashAfter` (none when undefined). */
async function runCase(storeName: string, name: string, crashAfter: number | undefined, byTurn: Map<number, ScriptedReply[]>, record: boolean): Promise<Outcome> {
  const agent = read<AgentDefinition>(name, 'agent.json');
  const replies = expandReplies(read<CaseReply[]>(name, 'replies.json'));
  const input = read<{ task?: string; approvals?: ('approve' | 'deny')[] }>(name, 'input.json', {});
  const approvals = input.approvals ?? [];
  const store = (stores[storeName] as () => TranscriptStore)();
  const toolStores: SqliteToolStore = openSqliteStore(':memory:');
  const effects: EffectLog = new Map();
  const writes = { count: 0 };
  const sid = 'crash-case';
  let next = 0;
  const host = () => {
    const served = new Map<number, number>();
    // The uninterrupted run takes the list in order (and notes which turn asked for which); a new host answers by turn.
    const model = (turn: ScriptedTurn): ScriptedReply => {
      const index = turnOf(turn);
      if (record) {
        const reply = replies[next++] ?? { error: 'PROVIDER_SCRIPT_EXHAUSTED' as const, errorMessage: 'no reply left' };
        byTurn.set(index, [...(byTurn.get(index) ?? []), reply]);
        return reply;
      }
      const count = served.get(index) ?? 0;
      served.set(index, count + 1);
      return byTurn.get(index)?.[count] ?? { error: 'PROVIDER_SCRIPT_EXHAUSTED', errorMessage: `turn ${index} asked ${count + 1} times` };
    };
    return createAskLoop({ plugins: [testPlugin({ case: model }, effects)], store: hostStore(store, crashAfter, writes), pool, toolStores, clock: { now: () => 0 }, createId: () => 'loop' });
  };
  let started = false;
  let answered = 0;
  let answering: number | undefined;
  let result: LoopResult | undefined;
  let killed = false;
  for (let hosts = 0; result === undefined; hosts += 1) {
    if (hosts > 20) throw new Error('no host finished the session');
    const loop = host();
    const answer = () => (approvals[answered] === 'approve' ? loop.approve(sid) : loop.deny(sid, { note: 'not today' }));
    try {
      let current: LoopResult;
      if (!started) {
        started = true;
        current = await loop.run({ agent: { ...agent, model: agent.model ?? 'scripted:case' }, task: input.task ?? 'conformance', sid });
      } else if (answering !== undefined && pendingAt(await store.lastTurn(sid)) === answering) {
        current = await answer();
      } else {
        // The answer was recorded before the host died (or none was under way).
        if (answering !== undefined) (answered += 1), (answering = undefined);
        current = await loop.resume(sid);
      }
      if (answering !== undefined) (answered += 1), (answering = undefined);
      while (current.status === 'PAUSED' && answered < approvals.length) {
        answering = pendingAt(await store.lastTurn(sid));
        current = await answer();
        answered += 1;
        answering = undefined;
      }
      result = current;
    } catch (error) {
      // The one host that died (its error may come wrapped, or as whatever its death caused); anything else fails.
      if (crashAfter === undefined || writes.count < crashAfter || killed) throw error;
      killed = true;
    } finally {
      await loop.close();
    }
  }
  // The provider's latency and the tools' durations are the real clock's: the fields a second run may change.
  const records = (await store.listTurns(sid)).map((turn) => ({
    ...turn,
    ...(turn.reply === undefined ? {} : { reply: { ...turn.reply, latencyMs: 0 } }),
    toolCalls: turn.toolCalls.map((call) => ({ ...call, durationMs: 0 })),
  }));
  const session = await store.getSession(sid);
  const outcome = { result, records, session, effects: Object.fromEntries(effects), writes: writes.count };
  toolStores.close();
  await store.close();
  return outcome;
}

const withoutReruns = ({ reruns: _reruns, ...record }: TurnRecord): TurnRecord => record;
/** The record without the note that a run of it stopped mid-turn (what a crash adds, and only that). */
const withoutInterrupted = ({ interrupted: _interrupted, ...record }: TurnRecord): TurnRecord => record;

describe.each(Object.keys(stores))('a host killed after any save (%s store)', (storeName) => {
  it.each(cases)('%s ends as if it never crashed', async (name) => {
    const byTurn = new Map<number, ScriptedReply[]>();
    const baseline = await runCase(storeName, name, undefined, byTurn, true);
    const session = baseline.session as { tally?: unknown } | undefined;
    if (session?.tally !== undefined) expect(session.tally).toEqual(tallyOf(baseline.records.filter((record) => record.phase === 'decided')));
    const resumableEnd = baseline.result?.status === 'HALT' && isResumableHalt(baseline.result.reason, baseline.result.failure);
    expect(baseline.records.every((record) => record.reruns === undefined)).toBe(true);
    for (let crashAfter = 1; crashAfter <= baseline.writes; crashAfter += 1) {
      const killed = await runCase(storeName, name, crashAfter, byTurn, false);
      const where = `${name}, host killed after write ${crashAfter}`;
      // A host killed while a turn was asking or executing leaves that turn's record noting it, once; no other differs.
      const noted = killed.records.filter((record) => record.interrupted !== undefined);
      expect(noted.length, where).toBeLessThanOrEqual(1);
      if (noted[0] !== undefined) expect(noted[0].interrupted, where).toEqual([{ phase: expect.stringMatching(/^(asking|executing)$/), at: expect.any(String) }]);
      const crashed = { ...killed, records: killed.records.map(withoutInterrupted) };
      expect(crashed.result, where).toEqual(baseline.result);
      if (resumableEnd && crashed.records.at(-1)?.reruns !== undefined) {
        // Killed after the resumable HALT was saved: the next host's `resume` ran that turn again (it halted alike), and
        // its record says so; nothing else may differ.
        expect(crashed.records.at(-1)?.reruns, where).toBe(1);
        expect(crashed.records.map(withoutReruns), where).toEqual(baseline.records);
      } else expect(crashed.records, where).toEqual(baseline.records);
      expect(crashed.effects, where).toEqual(baseline.effects);
      const { updatedAt: _a, ...crashedSession } = crashed.session as { updatedAt: string };
      const { updatedAt: _b, ...baselineSession } = baseline.session as { updatedAt: string };
      expect(crashedSession, where).toEqual(baselineSession);
    }
  });
});
