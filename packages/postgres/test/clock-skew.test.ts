/**
 * Hosts whose wall clocks are set apart, sharing the tools' stores on one
 * database. A scratch entry's TTL, an idempotence record's age and a memory
 * key's update time are measured on the database server's clock, the one
 * clock every host of the database reads (the leases already were): a host
 * whose clock ran two minutes ahead read another host's live entry as
 * expired and took it over with `putCas(…, 0, …)` — two hosts each holding
 * the key —, one whose clock ran behind wrote entries that lived two minutes
 * past their TTL, and one ahead removed another host's fresh idempotence
 * records as old. A host's skew is its `Date.now()` set apart (what the
 * system clock of the stores reads) while it makes its calls.
 */
import { sampleSession } from '@askloop/controller/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { applyPostgresMigrations } from '../src/migrate/postgres-migrations.ts';
import { createSessionQueue, enqueueSession } from '../src/queue/session-queue.ts';
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

async function freshPools(): Promise<(options?: pg.PoolConfig) => pg.Pool> {
  const pools = await database.schema();
  await applyPostgresMigrations(pools({ max: 1 }));
  return pools;
}

const SKEW_MS = 120_000;

/** Runs `calls` as a host whose wall clock reads `offsetMs` away from the true time. */
async function onHostSkewed<T>(offsetMs: number, calls: () => Promise<T>): Promise<T> {
  const trueNow = Date.now.bind(Date);
  const skewed = vi.spyOn(Date, 'now').mockImplementation(() => trueNow() + offsetMs);
  try {
    return await calls();
  } finally {
    skewed.mockRestore();
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the tools' stores of hosts whose clocks differ", () => {
  it('a host two minutes ahead sees the scratch entry another host holds, and cannot take it over', async () => {
    const pools = await freshPools();
    const onTime = createPostgresToolStores(pools());
    const ahead = createPostgresToolStores(pools());
    expect(await onTime.scratch.putCas('sid-1', 'lock', 0, 'held by the first host', 60_000)).toEqual({ ok: true, version: 1 });
    expect(await onHostSkewed(SKEW_MS, () => ahead.scratch.get('sid-1', 'lock'))).toEqual({ value: 'held by the first host', version: 1 });
    expect(await onHostSkewed(SKEW_MS, () => ahead.scratch.putCas('sid-1', 'lock', 0, 'taken by the second host', 60_000))).toEqual({ ok: false, version: 1 });
    expect(await onTime.scratch.get('sid-1', 'lock')).toEqual({ value: 'held by the first host', version: 1 });
    // Nor does its purge clear it.
    expect(await onHostSkewed(SKEW_MS, () => ahead.scratch.purgeExpired())).toBe(0);
  });

  it.each([
    ['behind', -SKEW_MS],
    ['ahead', SKEW_MS],
  ] as const)('an entry a host two minutes %s writes for 300 ms lives 300 ms for every host', async (_way, offsetMs) => {
    const pools = await freshPools();
    const onTime = createPostgresToolStores(pools());
    const skewed = createPostgresToolStores(pools());
    expect(await onHostSkewed(offsetMs, () => skewed.scratch.putCas('sid-1', 'cursor', 0, 7, 300))).toEqual({ ok: true, version: 1 });
    expect(await onTime.scratch.get('sid-1', 'cursor')).toEqual({ value: 7, version: 1 });
    await pause(500);
    expect(await onTime.scratch.get('sid-1', 'cursor')).toEqual({ value: null, version: 0 });
    expect(await onHostSkewed(offsetMs, () => skewed.scratch.get('sid-1', 'cursor'))).toEqual({ value: null, version: 0 });
    expect(await onTime.scratch.purgeExpired()).toBe(1);
  });

  it("a host two minutes ahead keeps another host's idempotence records younger than the retention", async () => {
    const pools = await freshPools();
    const onTime = createPostgresToolStores(pools());
    const ahead = createPostgresToolStores(pools());
    const key = { session: 'sid-1', turn: 1, callIndex: 0, tool: 'tool.demo.Bump', argumentsJson: '{"args":{},"rest":[]}' };
    expect(await onTime.idempotence.claim(key)).toEqual({ state: 'claimed' });
    await onTime.idempotence.record({ ...key, result: 1 });
    expect(await onHostSkewed(SKEW_MS, () => ahead.idempotence.forgetBefore!('sid-1', 2, 60_000))).toBe(0);
    expect(await onTime.idempotence.lookup('sid-1', 1, 0)).toMatchObject({ result: 1 });
    // Past the retention on the database's clock, it goes.
    await pause(300);
    expect(await onTime.idempotence.forgetBefore!('sid-1', 2, 200)).toBe(1);
  });

  it("a worker's lease-bound stores measure on the database's clock too", async () => {
    const pools = await freshPools();
    const pool = pools();
    await createPostgresTranscriptStore(pool).createSession(sampleSession('sid-1'));
    await enqueueSession(pool, 'sid-1');
    expect(await createPostgresToolStores(pool).scratch.putCas('sid-1', 'lock', 0, 'held', 60_000)).toEqual({ ok: true, version: 1 });
    const worker = createLeaseBoundStores(pools());
    const binding = worker.bind((await createSessionQueue(pool).acquire('host-ahead'))!);
    try {
      expect(await onHostSkewed(SKEW_MS, () => worker.toolStores.scratch.putCas('sid-1', 'lock', 0, 'taken', 60_000))).toEqual({ ok: false, version: 1 });
    } finally {
      await binding.rollback();
    }
  });

  it("a write that waited for the entry's lock (another step holds it) counts its TTL from when it got the lock, not from before it waited", async () => {
    const pools = await freshPools();
    const stores = createPostgresToolStores(pools());
    expect(await stores.scratch.putCas('sid-1', 'lock', 0, 'first', 60_000)).toEqual({ ok: true, version: 1 });
    // Another host's step read the entry for update (its CAS lost, say) and holds the row until its transaction ends.
    const holder = await pools({ max: 1 }).connect();
    await holder.query('BEGIN');
    await holder.query("SELECT version FROM askloop_scratch WHERE session = 'sid-1' AND key = 'lock' FOR UPDATE");
    const writing = stores.scratch.putCas('sid-1', 'lock', 1, 'second', 1_000);
    await pause(1_500);
    await holder.query('ROLLBACK');
    holder.release();
    expect(await writing).toEqual({ ok: true, version: 2 });
    // Written a second ago at most: it lives for its full second from then, so it is there now.
    expect(await stores.scratch.get('sid-1', 'lock')).toEqual({ value: 'second', version: 2 });
  });

  it('an injected clock is still the one TTLs follow (tests, replays)', async () => {
    const pools = await freshPools();
    let now = Date.now() - 10 * SKEW_MS;
    const clock = { now: () => now };
    const stores = createPostgresToolStores(pools(), { clock });
    await stores.scratch.putCas('sid-1', 'k', 0, 'v', 1000);
    expect(await stores.scratch.get('sid-1', 'k')).toEqual({ value: 'v', version: 1 });
    now += 1000;
    expect(await stores.scratch.get('sid-1', 'k')).toEqual({ value: null, version: 0 });
  });
});
