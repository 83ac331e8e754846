/**
 * A turn's first write removes the session's idempotence records of earlier
 * turns (`createToolHost({ pruneEarlierTurnsAfterMs })`, which the
 * controller passes its `idempotenceRetentionMs`), inside a worker's step
 * transaction, on a real server:
 *
 * - the removal never waits for rows a stale step holds (`SKIP LOCKED`): the
 *   host that took the session over writes at once, where it used to wait
 *   until the stale step ended (and, before the removal ran in a savepoint,
 *   a `lock_timeout` aborted the step's transaction);
 * - a stale step of a turn the new holder finished and moved on from still
 *   replays that turn's record while the records are younger than the
 *   retention: the write does not act twice.
 */
import { sampleSession } from '@askloop/controller/testing';
import { createPolicy, createToolHost, createToolRegistry, defineTool, defineToolPack, type ToolStores } from '@askloop/tools';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyPostgresMigrations } from '../src/migrate/postgres-migrations.ts';
import { createSessionQueue, enqueueSession, type Lease } from '../src/queue/session-queue.ts';
import { createPostgresToolStores } from '../src/tools/postgres-tool-stores.ts';
import { createPostgresTranscriptStore } from '../src/transcript/postgres-transcript-store.ts';
import { createLeaseBoundStores } from '../src/worker/lease-bound-stores.ts';
import { createTestDatabase, type TestDatabase } from './support/test-database.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function setup(sid: string) {
  const pools = await database.schema();
  await applyPostgresMigrations(pools({ max: 1 }));
  const pool = pools();
  await createPostgresTranscriptStore(pool).createSession(sampleSession(sid));
  await enqueueSession(pool, sid);
  return { pools, pool, queue: createSessionQueue(pool, { leaseMs: 60_000 }) };
}

/** Makes `lease` run out now (renewed for 1 ms), as a host that stalled past it. */
async function lapse(pool: pg.Pool, lease: Lease): Promise<void> {
  expect(await createSessionQueue(pool, { leaseMs: 1 }).renew(lease)).toBeDefined();
  await pause(20);
}

/** A host with an external write whose effects are counted, and a pure call; earlier turns' records older than `retainMs` are removed. */
function hostFor(stores: ToolStores, sid: string, turn: number, effects: Map<string, number>, retainMs?: number) {
  const registry = createToolRegistry([
    defineToolPack('x', [
      defineTool({ name: 'tool.x.Send', description: 'Sends.', args: [{ name: 'to', type: 'string' }], returns: 'int', effect: 'external' }, (args) => {
        const next = (effects.get(String(args.to)) ?? 0) + 1;
        effects.set(String(args.to), next);
        return next;
      }),
    ]),
    defineToolPack('p', [defineTool({ name: 'tool.p.Same', description: 'Pure.', args: [], returns: 'int' }, () => 0)], { pure: true }),
  ]);
  return createToolHost({ registry, policy: createPolicy({ allow: ['tool.x.*', 'tool.p.*'] }), stores, session: sid, turn, journalReads: true, ...(retainMs === undefined ? {} : { pruneEarlierTurnsAfterMs: retainMs }) });
}

it("the host that takes a session over writes at once, not waiting on the records a stale step's removal holds", async () => {
  const sid = 'no-wait';
  const { pools, pool, queue } = await setup(sid);
  const effects = new Map<string, number>();
  await hostFor(createPostgresToolStores(pool), sid, 1, effects).call('tool.x.Send', ['one']);
  await pause(5);
  // A stale step of turn 2: its first write removed turn 1's record in its transaction, which stays open (it stalled).
  const staleStores = createLeaseBoundStores(pools());
  const stale = staleStores.bind((await queue.acquire('stale-host'))!);
  const staleHost = hostFor(staleStores.toolStores, sid, 2, effects, 0);
  await staleHost.call('tool.p.Same', []);
  await staleHost.call('tool.x.Send', ['a']);
  await lapse(pool, stale.lease);
  // The new holder's re-run of turn 2 takes another branch (its call 0 is a write): its removal skips the rows the stale
  // step holds instead of waiting for them. Its pool gives up on a lock after 15 s, longer than the race below, so a
  // removal that waits is seen waiting (with a short lock_timeout its failure was swallowed, and the test passed).
  const schema = (await pool.query<{ s: string }>('SELECT current_schema() AS s')).rows[0]!.s;
  const lockTimed = new pg.Pool({ connectionString: database.url, max: 2, options: `-c search_path=${schema} -c lock_timeout=15000` });
  lockTimed.on('error', () => undefined);
  try {
    const next = createLeaseBoundStores(lockTimed);
    const binding = next.bind((await queue.acquire('next-host'))!);
    const write = hostFor(next.toolStores, sid, 2, effects, 0).call('tool.x.Send', ['c']).then(
      (value) => ({ value }),
      (error: { code?: string; message?: string }) => ({ code: error.code, message: error.message }),
    );
    // Not a timing assertion: a removal that waits for the stale step waits until that step ends, which is below.
    const outcome = await Promise.race([write, pause(10_000).then(() => 'still waiting for the stale step after 10 s')]);
    await stale.rollback();
    await write;
    await binding.commit({ status: 'RUNNING', turns: 2 });
    // Checked after the commit, so that a failure does not leave the step's client checked out (lockTimed.end() would wait for it).
    expect(outcome).toEqual({ value: 1 });
    // What the stale step held is still there (its removal rolled back with it), for a later turn to remove.
    expect((await createPostgresToolStores(pool).idempotence.lookup(sid, 1, 0))?.result).toBe(1);
  } finally {
    await lockTimed.end();
  }
});

it("a stale step's write of a turn the new holder finished replays the record, the records being younger than the retention", async () => {
  const sid = 'stale-replays';
  const { pools, pool, queue } = await setup(sid);
  const effects = new Map<string, number>();
  const staleStores = createLeaseBoundStores(pools());
  const stale = staleStores.bind((await queue.acquire('stale-host'))!);
  // The stale host is in turn 2 before its first write (a slow model call); its lease runs out.
  await lapse(pool, stale.lease);
  const next = createLeaseBoundStores(pools());
  for (const turn of [2, 3]) {
    const binding = next.bind((await queue.acquire('next-host'))!);
    await hostFor(next.toolStores, sid, turn, effects, 3_600_000).call('tool.x.Send', [turn === 2 ? 'a' : 'b']);
    await binding.commit({ status: 'RUNNING', turns: turn });
  }
  // It wakes (its renewal has not run yet) and makes turn 2's write call: answered from the record turn 3 kept.
  expect(await hostFor(staleStores.toolStores, sid, 2, effects, 3_600_000).call('tool.x.Send', ['a'])).toBe(1);
  await stale.rollback();
  expect(effects.get('a')).toBe(1);
});
