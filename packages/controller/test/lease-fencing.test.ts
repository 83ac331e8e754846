/**
 * Fenced session leases (`fenced-leases.ts`): the shared table
 * (`leaseFencingCases`: a host that stalled past its lease while another
 * host took the session over cannot write the session any more, and its
 * renewal fails instead of taking the lease back) on a SQLite file shared by
 * two store objects (two hosts) and on one memory store shared by two
 * holders; then end to end, a controller whose lease is taken over mid-turn.
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
import { runUnderLease } from '../src/session/lease-scope.ts';
import { leaseFencingCases, sampleSession, sampleTurn } from '../src/testing/index.ts';
import { envelope, testPlugin, type EffectLog } from './test-plugin.ts';

const dir = mkdtempSync(join(tmpdir(), 'askloop-lease-fencing-'));
const pool = createSandboxPool({ workers: 1 });
afterAll(async () => {
  await pool.close();
  rmSync(dir, { recursive: true, force: true });
});
let files = 0;

/** Host A's and host B's view of one store: two store objects on one SQLite file, or one memory store. */
const hostsOn = {
  sqlite: (): [TranscriptStore, TranscriptStore] => {
    const file = join(dir, `hosts-${++files}.db`);
    return [createSqliteTranscriptStore(file), createSqliteTranscriptStore(file)];
  },
  memory: (): [TranscriptStore, TranscriptStore] => {
    const store = createMemoryTranscriptStore();
    return [store, store];
  },
};

describe.each(Object.entries(hostsOn))('fenced leases on the %s store', (_name, open) => {
  it.each(leaseFencingCases.map((testCase) => [testCase.name, testCase] as const))('%s', (_case, testCase) => testCase.run(open));
});

describe('a controller whose lease is taken over mid-turn', () => {
  it('fails the step with LOOP_LEASE_LOST and writes nothing after the takeover', async () => {
    const file = join(dir, 'takeover.db');
    // The model answers when the test says so, and says when it was asked.
    let asked!: () => void;
    const wasAsked = new Promise<void>((resolve) => (asked = resolve));
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const replies = async () => {
      asked();
      await answered;
      return envelope(['command', '  emit "late"', 'endcommand'].join('\n'));
    };
    const hostA = createAskLoop({ plugins: [testPlugin({ m: replies })], store: createSqliteTranscriptStore(file), pool, sessionLeaseMs: 150 });
    const sid = await hostA.create({ agent: { name: 'worker', model: 'scripted:m' }, task: 'takeover' });
    const stepping = hostA.step(sid);
    await wasAsked;
    // Host A waits for its model. Its lease lapses (as if it had stalled) and host B takes the session over.
    const hostB = createSqliteTranscriptStore(file);
    hostB.database.prepare('UPDATE controller_leases SET expires_at = 0 WHERE sid = ?').run(sid);
    expect(await hostB.acquireLease!(sid, 'host-b', 60_000)).toBe(true);
    const before = await hostB.listTurns(sid);
    answer();
    await expect(stepping).rejects.toMatchObject({ code: 'LOOP_LEASE_LOST', sid });
    // Nothing A did after the takeover was kept: the turn is as it was when B took over, and so is the session row.
    expect(await hostB.listTurns(sid)).toEqual(before);
    expect((await hostB.getSession(sid))?.turns).toBe(0);
    await hostA.close();
    await hostB.close();
  });
});

describe('a controller whose renewal finds the lease taken over', () => {
  it('stops the step: the running tool is aborted and the program goes no further', async () => {
    const file = join(dir, 'stopped.db');
    const effects: EffectLog = new Map();
    const reply = envelope(['command', '  call tool.test.Sleep(3000)', '  set n = tool.test.Bump("after")', '  emit "done"', 'endcommand'].join('\n'));
    const store = createSqliteTranscriptStore(file);
    const hostA = createAskLoop({ plugins: [testPlugin({ m: [reply] }, effects)], store, pool, sessionLeaseMs: 150 });
    const sid = await hostA.create({ agent: { name: 'worker', model: 'scripted:m', policy: { allow: ['tool.test.*'] } }, task: 'stopped' });
    const sleeping = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        const phase = store.database.prepare('SELECT phase FROM controller_turns WHERE sid = ?').get(sid) as { phase?: string } | undefined;
        if (phase?.phase === 'executing') {
          clearInterval(check);
          resolve();
        }
      }, 5);
    });
    const stepping = hostA.step(sid);
    await sleeping;
    // While A's program sleeps, its lease lapses (as if A had stalled) and host B takes the session over.
    const hostB = createSqliteTranscriptStore(file);
    hostB.database.prepare('UPDATE controller_leases SET expires_at = 0 WHERE sid = ?').run(sid);
    expect(await hostB.acquireLease!(sid, 'host-b', 60_000)).toBe(true);
    await expect(stepping).rejects.toMatchObject({ code: 'LOOP_LEASE_LOST', sid });
    // A's next renewal (every 50 ms) stopped it: the sleeping tool was aborted and the write tool after it never ran.
    expect(effects.get('after')).toBeUndefined();
    await hostA.close();
    await hostB.close();
  });
});

describe('work a step starts for other ends', () => {
  it('is not fenced by the step: a replay an event listener starts in the background matches', async () => {
    const reply = envelope(['command', '  emit "<<<LOOP:DONE>>> ok"', 'endcommand'].join('\n'));
    const store = createSqliteTranscriptStore(join(dir, `replay-in-step-${++files}.db`));
    let replayed: Promise<unknown> | undefined;
    const loop = createAskLoop({
      plugins: [testPlugin({ m: [reply, reply] })],
      store,
      pool,
      // An audit listener: replays the session once it is decided, without waiting (its writes outlive the step).
      onEvent: (event) => {
        if (event.type === 'decision') replayed ??= loop.replay(event.sid);
      },
    });
    const result = await loop.run({ agent: { name: 'worker', model: 'scripted:m' }, task: 'audit' });
    expect(result.status).toBe('DONE');
    expect(await replayed).toMatchObject({ matched: true, turns: 1 });
    await loop.close();
  });
});

describe('a store whose leases do not fence', () => {
  it('records nothing of a step stopped by a lost lease: no cancellation over the new owner\'s turn', async () => {
    const effects: EffectLog = new Map();
    const inner = createMemoryTranscriptStore();
    let takenOver = false;
    // Leases as a store without tokens keeps them: a renewal fails once another host holds the session, nothing more.
    const store: TranscriptStore = { ...inner, acquireLease: async () => !takenOver, releaseLease: async () => {} };
    for (const method of ['createSession', 'getSession', 'updateSession', 'listSessions', 'saveTurn', 'listTurns', 'lastTurn', 'close'] as const) {
      (store as unknown as Record<string, unknown>)[method] = (inner[method] as (...args: unknown[]) => unknown).bind(inner);
    }
    const reply = envelope(['command', '  call tool.test.Sleep(3000)', '  set n = tool.test.Bump("after")', 'endcommand'].join('\n'));
    const host = createAskLoop({ plugins: [testPlugin({ m: [reply] }, effects)], store, pool, sessionLeaseMs: 150 });
    const sid = await host.create({ agent: { name: 'worker', model: 'scripted:m', policy: { allow: ['tool.test.*'] } }, task: 'unfenced' });
    const stepping = host.step(sid);
    for (;;) {
      if ((await inner.lastTurn(sid))?.phase === 'executing') break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    takenOver = true;
    await expect(stepping).rejects.toMatchObject({ code: 'LOOP_LEASE_LOST', sid });
    expect(effects.get('after')).toBeUndefined();
    // The turn stays as it was when the lease was lost, and the session is not halted.
    expect((await inner.lastTurn(sid))?.phase).toBe('executing');
    expect((await inner.getSession(sid))?.status).not.toBe('halted');
    await host.close();
  });
});

describe('a take whose transaction failed', () => {
  it('is forgotten: the holder takes the lease again later instead of failing every renewal', async () => {
    const file = join(dir, `failed-take-${++files}.db`);
    const store = createSqliteTranscriptStore(file);
    await store.createSession(sampleSession('s'));
    await store.createSession(sampleSession('other'));
    // A write queued in the same batch ends the whole transaction (a statement that rolls it back), after the take ran.
    const breaking = new Promise<void>((resolve, reject) => {
      queueMicrotask(() => {
        store.database.exec('CREATE TEMP TRIGGER end_it BEFORE UPDATE ON controller_sessions BEGIN SELECT RAISE(ROLLBACK, \'disk gone\'); END');
        store.updateSession(sampleSession('other', { turns: 1 })).then(resolve, reject);
      });
    });
    const taking = store.acquireLease!('s', 'host-a', 60_000);
    await expect(taking).rejects.toMatchObject({ code: 'LOOP_STORE_ERROR' });
    await expect(breaking).rejects.toMatchObject({ code: 'LOOP_STORE_ERROR' });
    store.database.exec('DROP TRIGGER end_it');
    // Nothing of the take is in the file, and the holder takes the lease afresh (token 1, as if never tried).
    expect(store.database.prepare('SELECT count(*) AS n FROM controller_leases').get()).toEqual({ n: 0 });
    expect(await store.acquireLease!('s', 'host-a', 60_000)).toBe(true);
    await runUnderLease('s', 'host-a', () => store.saveTurn(sampleTurn('s', 1)));
    expect(await store.acquireLease!('s', 'host-a', 60_000)).toBe(true);
    await store.close();
  });
});
