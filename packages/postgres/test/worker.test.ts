/**
 * Workers on a real PostgreSQL server: several hosts share the queue and
 * every session ends DONE with each turn committed once; a host whose lease
 * is gone cannot commit; and a host killed with SIGKILL in the middle of a
 * turn loses nothing — another host re-runs the turn from its recorded
 * reply, and the killed host's tool effects, which never committed, do not
 * count twice.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createAskLoop, definePlugin, LoopError, runUnderLease, type AskLoop, type AskLoopWithMetrics } from '@askloop/controller';
import { defineProvider, ProviderError } from '@askloop/providers';
import { sampleSession, sampleTurn } from '@askloop/controller/testing';
import { createSandboxPool, type SandboxPool } from '@askloop/interpreter';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { isTransactionConflict, PostgresStoreError } from '../src/errors/postgres-store-error.ts';
import { applyPostgresMigrations } from '../src/migrate/postgres-migrations.ts';
import { createSessionQueue, enqueueSession, type Lease } from '../src/queue/session-queue.ts';
import { createPostgresToolStores } from '../src/tools/postgres-tool-stores.ts';
import { createPostgresTranscriptStore } from '../src/transcript/postgres-transcript-store.ts';
import { createLeaseBoundStores } from '../src/worker/lease-bound-stores.ts';
import { runWorker, type WorkerStepEvent } from '../src/worker/run-worker.ts';
import { auditSessions } from './support/audit-sessions.ts';
import { countingAgent, countingPlugin } from './support/counting-plugin.ts';
import { createTestDatabase, type TestDatabase } from './support/test-database.ts';

let database: TestDatabase;
let sandbox: SandboxPool;
const children: ChildProcess[] = [];
beforeAll(async () => {
  database = await createTestDatabase();
  sandbox = createSandboxPool({ workers: 2 });
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await sandbox.close();
  await database.drop();
});

let schemas = 0;
async function freshSchema(): Promise<{ pools: (options?: pg.PoolConfig) => pg.Pool; name: string }> {
  const pools = await database.schema();
  schemas += 1;
  await applyPostgresMigrations(pools({ max: 1 }));
  return { pools, name: `s_${schemas}` };
}

/** Creates and queues sessions labelled `labels` of the counting agent. */
async function queueSessions(pool: pg.Pool, labels: readonly string[], turns: number): Promise<string[]> {
  const loop = createAskLoop({ plugins: [countingPlugin(turns)], store: createPostgresTranscriptStore(pool), pool: sandbox });
  const sids: string[] = [];
  for (const label of labels) {
    const sid = await loop.create({ agent: 'counter', task: label, sid: label });
    await enqueueSession(pool, sid);
    sids.push(sid);
  }
  return sids;
}

/**
 * A fresh schema with `sids` created and queued: the plain store, the queue (leases of `leaseMs`) and a worker's
 * lease-bound stores on a pool of their own.
 */
async function queuedSessions(sids: readonly string[], leaseMs?: number) {
  const { pools } = await freshSchema();
  const pool = pools();
  const plain = createPostgresTranscriptStore(pool);
  for (const sid of sids) {
    await plain.createSession(sampleSession(sid));
    await enqueueSession(pool, sid);
  }
  return { pools, pool, plain, queue: createSessionQueue(pool, leaseMs === undefined ? {} : { leaseMs }), stores: createLeaseBoundStores(pools()) };
}

/** A worker host in this process: its own pool, stores and loop. */
function workerLoop(pool: pg.Pool, turns: number): { loop: AskLoopWithMetrics; stores: ReturnType<typeof createLeaseBoundStores> } {
  const stores = createLeaseBoundStores(pool);
  return { stores, loop: createAskLoop({ plugins: [countingPlugin(turns)], store: stores.transcript, toolStores: stores.toolStores, pool: sandbox }) };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Makes `lease` run out now, as it does for a host that stalled past it: renewed for 1 ms. */
async function lapse(pool: pg.Pool, lease: Lease): Promise<void> {
  expect(await createSessionQueue(pool, { leaseMs: 1 }).renew(lease)).toBeDefined();
  await pause(20);
}

/** The error PostgreSQL fails one of two transactions with when each waits for a row the other holds (SQLSTATE 40P01). */
async function realDeadlock(pool: pg.Pool): Promise<Error> {
  await pool.query('CREATE TABLE deadlock_probe (id integer PRIMARY KEY, n integer NOT NULL); INSERT INTO deadlock_probe VALUES (1, 0), (2, 0)');
  const [first, second] = [await pool.connect(), await pool.connect()];
  try {
    await first.query('BEGIN');
    await second.query('BEGIN');
    await first.query('UPDATE deadlock_probe SET n = n + 1 WHERE id = 1');
    await second.query('UPDATE deadlock_probe SET n = n + 1 WHERE id = 2');
    const crossed = await Promise.allSettled([first.query('UPDATE deadlock_probe SET n = n + 1 WHERE id = 2'), second.query('UPDATE deadlock_probe SET n = n + 1 WHERE id = 1')]);
    const victim = crossed.find((outcome) => outcome.status === 'rejected');
    if (victim === undefined) throw new Error('PostgreSQL broke no deadlock');
    return victim.reason as Error;
  } finally {
    await first.query('ROLLBACK').catch(() => undefined);
    await second.query('ROLLBACK').catch(() => undefined);
    first.release();
    second.release();
    await pool.end();
  }
}

describe('lease-bound stores', () => {
  it('refuse the commit of a host whose lease expired and was taken: nothing of its turn after the last fenced write is kept', async () => {
    const { pools, pool, plain, queue, stores } = await queuedSessions(['fenced'], 60_000);
    const lease = await queue.acquire('slow-host');
    const binding = stores.bind(lease!);
    // Before any tool effect the turn's records commit one by one, fenced.
    const asking = sampleTurn('fenced', 1, { phase: 'asking' });
    await stores.transcript.saveTurn(asking);
    expect((await plain.listTurns('fenced')).map((turn) => turn.phase)).toEqual(['asking']);
    // From the first tool effect on, the step is one transaction: nobody else sees it yet.
    expect(await stores.toolStores.memory.cas('/effect', 0, 'slow')).toEqual({ ok: true, version: 1 });
    await stores.transcript.saveTurn(sampleTurn('fenced', 1));
    expect((await stores.transcript.listTurns('fenced')).map((turn) => turn.phase)).toEqual(['decided']);
    const others = createPostgresToolStores(pools());
    expect(await others.memory.get('/effect')).toEqual({ value: null, version: 0 });

    await lapse(pool, lease!);
    const taken = await queue.acquire('fast-host');
    expect(taken?.sid).toBe('fenced');
    await expect(binding.commit({ status: 'RUNNING', turns: 1 })).rejects.toMatchObject({ code: 'PG_LEASE_LOST', sid: 'fenced' });
    expect(await others.memory.get('/effect')).toEqual({ value: null, version: 0 });
    expect((await plain.listTurns('fenced')).map((turn) => turn.phase)).toEqual(['asking']);
    expect((await pool.query('SELECT count(*)::int AS n FROM askloop_steps')).rows[0]).toEqual({ n: 0 });

    // The host that holds the lease now commits.
    const next = stores.bind(taken!);
    expect(await stores.toolStores.memory.cas('/effect', 0, 'fast')).toEqual({ ok: true, version: 1 });
    await stores.transcript.saveTurn(sampleTurn('fenced', 1));
    await next.commit({ status: 'RUNNING', turns: 1 });
    expect(await others.memory.get('/effect')).toEqual({ value: 'fast', version: 1 });
    expect((await plain.listTurns('fenced')).map((turn) => turn.phase)).toEqual(['decided']);
    expect(await queue.entry('fenced')).toMatchObject({ state: 'ready', steps: 1, leases: 2 });
  });

  it('end the step transaction of a host that froze past its lease, so the host that takes the session over never waits on its locks', async () => {
    const { pools, queue, stores } = await queuedSessions(['frozen'], 600);
    const frozen = stores.bind((await queue.acquire('frozen-host'))!);
    // The frozen host's step wrote a key (a row lock until its transaction ends), then stopped: no renewal, no statement.
    expect(await stores.toolStores.memory.cas('/held', 0, 'frozen')).toEqual({ ok: true, version: 1 });
    await pause(700);
    const taken = await queue.acquire('next-host');
    expect(taken?.sid).toBe('frozen');
    const next = createLeaseBoundStores(pools());
    const binding = next.bind(taken!);
    // Before, this write waited on the frozen host's lock for as long as that host slept (here: for ever).
    const write = next.toolStores.memory.cas('/held', 0, 'next');
    const outcome = await Promise.race([write, pause(5_000).then(() => 'still waiting on the frozen host\'s lock')]);
    expect(outcome).toEqual({ ok: true, version: 1 });
    await binding.commit({ status: 'RUNNING', turns: 1 });
    // The frozen host, waking, finds its transaction gone, as a lost lease: nothing of it is kept.
    expect(frozen.lost).toBe(true);
    await expect(frozen.commit({ status: 'RUNNING', turns: 1 })).rejects.toMatchObject({ code: 'PG_LEASE_LOST', message: expect.stringContaining('so the server ended its transaction') });
    expect(await createPostgresToolStores(pools()).memory.get('/held')).toEqual({ value: 'next', version: 1 });
  });

  it("keep a live host's step transaction open while it renews, though the step makes no statement for longer than the lease", async () => {
    const { pools, queue, stores } = await queuedSessions(['alive'], 3_000);
    let lease = (await queue.acquire('host'))!;
    const binding = stores.bind(lease);
    expect(await stores.toolStores.memory.cas('/kept', 0, 'alive')).toEqual({ ok: true, version: 1 });
    // A program running 3.5 s (longer than the lease) between two writes, its host renewing as runWorker does
    // (every 250 ms: a renewal up to 2.75 s late still finds the lease and the transaction alive).
    for (let round = 0; round < 14; round += 1) {
      await pause(250);
      binding.keepAlive();
      lease = (await queue.renew(lease))!;
    }
    expect(await stores.toolStores.memory.cas('/kept', 1, 'still alive')).toEqual({ ok: true, version: 2 });
    await binding.commit({ status: 'RUNNING', turns: 1 });
    expect(await createPostgresToolStores(pools()).memory.get('/kept')).toEqual({ value: 'still alive', version: 2 });
  });

  it('do not ping a step transaction while one of its statements runs (a second query on a busy client is deprecated by pg)', async () => {
    const { pool, queue, stores } = await queuedSessions(['busy'], 5_000);
    const binding = stores.bind((await queue.acquire('host'))!);
    expect(await stores.toolStores.memory.cas('/opened', 0, 'x')).toEqual({ ok: true, version: 1 });
    // Another transaction holds the key the step's next write needs, so that write's statement waits on the server.
    const other = await pool.connect();
    await other.query("BEGIN; INSERT INTO askloop_memory (key, value, version, updated_at) VALUES ('/blocked', 'other', 1, 0)");
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => void warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const write = stores.toolStores.memory.cas('/blocked', 0, 'step');
      await pause(200);
      binding.keepAlive();
      binding.keepAlive();
      await other.query('ROLLBACK');
      expect(await write).toEqual({ ok: true, version: 1 });
      await pause(50);
      expect(warnings.filter((message) => message.includes('already executing a query'))).toEqual([]);
      await binding.commit({ status: 'RUNNING', turns: 1 });
    } finally {
      process.off('warning', onWarning);
      other.release();
    }
  });

  it("refuse a tool write that outlived its step while the worker's next step is bound: it belongs to the step it started in", async () => {
    const { pools, queue, stores } = await queuedSessions(['first', 'second'], 5000);
    const firstLease = await queue.acquire('host');
    const first = stores.bind(firstLease!);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let straggler!: Promise<unknown>;
    await first.run(async () => {
      expect(await stores.toolStores.memory.cas('/effect', 0, 'on time')).toEqual({ ok: true, version: 1 });
      // A tool that ignores its signal: it writes once its step has ended.
      straggler = (async () => {
        await gate;
        return stores.toolStores.memory.cas('/late', 0, 'late');
      })();
    });
    await first.commit({ status: 'RUNNING', turns: 1 });
    const secondLease = await queue.acquire('host');
    expect(secondLease?.sid).not.toBe(firstLease?.sid);
    const second = stores.bind(secondLease!);
    release();
    // Refused (the tools' stores report it as their STORE_FAILED, the step's end in the message), not written into the second step.
    await expect(straggler).rejects.toMatchObject({ message: expect.stringContaining(`the step of session ${firstLease?.sid} under lease ${firstLease?.token} has ended; a call that outlived it writes nothing`) });
    await second.run(async () => {
      expect(await stores.toolStores.memory.cas('/second', 0, 'second')).toEqual({ ok: true, version: 1 });
    });
    await second.commit({ status: 'RUNNING', turns: 1 });
    const others = createPostgresToolStores(pools());
    expect(await others.memory.get('/effect')).toEqual({ value: 'on time', version: 1 });
    expect(await others.memory.get('/second')).toEqual({ value: 'second', version: 1 });
    expect(await others.memory.get('/late')).toEqual({ value: null, version: 0 });
  });

  it("survive the server ending the step's connection mid-step (pg_terminate_backend): the step fails, the process lives on, the next step commits", async () => {
    const { pools, pool, queue, stores } = await queuedSessions(['cut', 'after'], 5000);
    const binding = stores.bind((await queue.acquire('host'))!);
    // The step's transaction is open (a tool effect), and idle while the program would run.
    expect(await stores.toolStores.memory.cas('/cut', 0, 'never')).toEqual({ ok: true, version: 1 });
    const ended = await pool.query<{ ended: boolean }>("SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE state = 'idle in transaction' AND pid <> pg_backend_pid()");
    expect(ended.rows.map((row) => row.ended)).toEqual([true]);
    await pause(100);
    // Before, the client's 'error' event was unhandled here and ended the process (vitest reports it as an error).
    // A typed error, the server's as its cause (before, the bare driver error: "terminating connection due to administrator command").
    const failure = await binding.commit({ status: 'RUNNING', turns: 1 }).then(() => undefined, (error: unknown) => error);
    expect(failure).toMatchObject({ name: 'PostgresStoreError', code: 'PG_QUERY_FAILED', sid: 'cut', message: expect.stringContaining('step commit failed') });
    await binding.rollback();
    const next = stores.bind((await queue.acquire('host'))!);
    expect(await stores.toolStores.memory.cas('/after', 0, 'kept')).toEqual({ ok: true, version: 1 });
    await next.commit({ status: 'RUNNING', turns: 1 });
    const others = createPostgresToolStores(pools());
    expect(await others.memory.get('/cut')).toEqual({ value: null, version: 0 });
    expect(await others.memory.get('/after')).toEqual({ value: 'kept', version: 1 });
  });

  it('log a step only when it saved a decided or paused turn of its own session', async () => {
    const { pool, plain, queue, stores } = await queuedSessions(['quiet', 'paused', 'decided']);
    await plain.createSession(sampleSession('child'));
    const rows = async (sid: string) => (await pool.query<{ turns: number; status: string }>('SELECT turns, status FROM askloop_steps WHERE sid = $1', [sid])).rows;
    const leases = new Map<string, Awaited<ReturnType<typeof queue.acquire>>>();
    for (let taken = 0; taken < 3; taken += 1) {
      const lease = await queue.acquire('worker');
      leases.set(lease!.sid, lease);
    }
    // A turn still asking, and a decided turn of another session (an ask's child) saved during the step: not a row.
    const quiet = stores.bind(leases.get('quiet')!);
    await stores.transcript.saveTurn(sampleTurn('quiet', 1, { phase: 'asking' }));
    await stores.transcript.saveTurn(sampleTurn('child', 1));
    await quiet.commit({ status: 'RUNNING', turns: 0 });
    expect(await rows('quiet')).toEqual([]);
    const paused = stores.bind(leases.get('paused')!);
    await stores.transcript.saveTurn(sampleTurn('paused', 1, { phase: 'awaiting-approval' }));
    await paused.commit({ status: 'PAUSED', turns: 0 });
    expect(await rows('paused')).toEqual([{ turns: 0, status: 'PAUSED' }]);
    const decided = stores.bind(leases.get('decided')!);
    await stores.transcript.saveTurn(sampleTurn('decided', 1));
    await decided.commit({ status: 'RUNNING', turns: 1 });
    expect(await rows('decided')).toEqual([{ turns: 1, status: 'RUNNING' }]);
  });

  it("hold the controller's session lease until the step is committed, so no other host starts a turn on uncommitted writes", async () => {
    const { plain, queue, stores } = await queuedSessions(['held']);
    const binding = stores.bind((await queue.acquire('worker'))!);
    expect(await stores.transcript.acquireLease?.('held', 'worker-loop', 60_000)).toBe(true);
    await stores.transcript.saveTurn(sampleTurn('held', 1));
    await stores.transcript.releaseLease?.('held', 'worker-loop');
    expect(await plain.acquireLease?.('held', 'resuming-host', 60_000)).toBe(false);
    await binding.commit({ status: 'RUNNING', turns: 1 });
    expect(await plain.acquireLease?.('held', 'resuming-host', 60_000)).toBe(true);
  });

  it("refuse a worker's writes once a plain host took its session lease over, though its queue lease holds: one by one, and at the commit", async () => {
    const { pools, pool, plain, queue, stores } = await queuedSessions(['early', 'late'], 60_000);
    const lost = (sid: string) => ({ code: 'LOOP_LEASE_LOST', sid });
    /** The worker's controller takes its session lease for 0 ms: it lapses at once (a stall), and a plain host takes it. */
    const takenOver = async (sid: string): Promise<void> => {
      expect(await stores.transcript.acquireLease?.(sid, 'worker-loop', 0)).toBe(true);
      expect(await plain.acquireLease?.(sid, 'plain-host', 60_000)).toBe(true);
      await runUnderLease(sid, 'plain-host', () => plain.saveTurn(sampleTurn(sid, 1, { output: 'plain\n' })));
    };

    // A write committed on its own (before any tool effect) checks the session lease in its statement.
    const early = stores.bind((await queue.acquire('worker'))!);
    await takenOver(early.lease.sid);
    await expect(runUnderLease(early.lease.sid, 'worker-loop', () => stores.transcript.saveTurn(sampleTurn(early.lease.sid, 1, { phase: 'asking', output: 'worker\n' })))).rejects.toMatchObject(
      lost(early.lease.sid),
    );
    expect((await plain.listTurns(early.lease.sid)).map((turn) => turn.output)).toEqual(['plain\n']);
    await early.rollback();

    // In the step's transaction (after a tool effect) the writes go through; the commit checks and rolls all back.
    const late = stores.bind((await queue.acquire('worker'))!);
    const { sid } = late.lease;
    expect(await stores.transcript.acquireLease?.(sid, 'worker-loop', 60_000)).toBe(true);
    await runUnderLease(sid, 'worker-loop', async () => {
      expect(await stores.toolStores.memory.cas(`/effect/${sid}`, 0, 'worker')).toEqual({ ok: true, version: 1 });
      await stores.transcript.saveTurn(sampleTurn(sid, 1, { output: 'worker\n' }));
    });
    // The controller gives its session lease up when the step's work returns, before the worker commits.
    await stores.transcript.releaseLease?.(sid, 'worker-loop');
    expect(await plain.acquireLease?.(sid, 'plain-host', 60_000)).toBe(false);
    // Force a lapse (as a stalled host's) and let the plain host take over and write.
    await pool.query('UPDATE askloop_session_leases SET expires_at = clock_timestamp() WHERE sid = $1', [sid]);
    expect(await plain.acquireLease?.(sid, 'plain-host', 60_000)).toBe(true);
    // The plain host's write waits for the worker's transaction, which holds the turn's row.
    const plainWrite = runUnderLease(sid, 'plain-host', () => plain.saveTurn(sampleTurn(sid, 1, { output: 'plain\n' })));
    await expect(late.commit({ status: 'RUNNING', turns: 1 })).rejects.toMatchObject(lost(sid));
    await plainWrite;
    expect((await plain.listTurns(sid)).map((turn) => turn.output)).toEqual(['plain\n']);
    expect(await createPostgresToolStores(pools()).memory.get(`/effect/${sid}`)).toEqual({ value: null, version: 0 });
    expect((await pool.query('SELECT count(*)::int AS n FROM askloop_steps')).rows[0]).toEqual({ n: 0 });
  });

  it('refuse a fenced write once the lease expired', async () => {
    const { queue, stores } = await queuedSessions(['late'], 100);
    const binding = stores.bind((await queue.acquire('h'))!);
    await pause(200);
    await expect(stores.transcript.saveTurn(sampleTurn('late', 1, { phase: 'asking' }))).rejects.toMatchObject({ code: 'PG_LEASE_LOST' });
    expect(binding.lost).toBe(true);
    await binding.rollback();
  });
});

describe('runWorker', () => {
  it('outlives a database it cannot reach: reports it and asks again until stopped', async () => {
    const { pools } = await freshSchema();
    const { loop, stores } = workerLoop(pools(), 1);
    const unreachable = database.pool({ connectionString: 'postgres://postgres@127.0.0.1:1/none', connectionTimeoutMillis: 2000 });
    const stop = new AbortController();
    const errors: unknown[] = [];
    const stats = await runWorker({
      loop,
      stores,
      queue: createSessionQueue(unreachable),
      signal: stop.signal,
      onError: (error) => {
        errors.push(error);
        if (errors.length === 2) stop.abort();
      },
    });
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatchObject({ code: 'PG_QUERY_FAILED' });
    expect(stats).toEqual({ committed: 0, ended: 0, leaseLost: 0, conflicts: 0, skipped: 0, failed: 0 });
    await loop.close();
  });

  it('reports a step of a session another host ended meanwhile as no turn (decided: false, counted apart)', async () => {
    const { pools } = await freshSchema();
    const pool = pools();
    // Another host ran and ended the session while it stayed queued: only its end is left for this worker to report.
    const other = createAskLoop({ plugins: [countingPlugin(1)], store: createPostgresTranscriptStore(pool), pool: sandbox });
    const sid = await other.create({ agent: countingAgent(1), task: 'finished-elsewhere', sid: 'finished-elsewhere' });
    await enqueueSession(pool, sid);
    expect(await other.resume(sid)).toMatchObject({ status: 'DONE', turns: 1 });
    await other.close();
    const { loop, stores } = workerLoop(pools(), 1);
    const stop = new AbortController();
    const events: WorkerStepEvent[] = [];
    const stats = await runWorker({ loop, stores, queue: createSessionQueue(pools()), signal: stop.signal, idleMs: 10, onStep: (event) => (events.push(event), stop.abort()) });
    expect(events).toMatchObject([{ sid: 'finished-elsewhere', outcome: 'committed', status: 'DONE', turns: 1, decided: false }]);
    expect(stats).toEqual({ committed: 0, ended: 1, leaseLost: 0, conflicts: 0, skipped: 0, failed: 0 });
    await loop.close();
  });

  it('reports a step that failed after its lease ran out (a stalled host whose connection the server ended) as a lost lease, not a failure', async () => {
    const { pool, stores } = await queuedSessions(['stalled'], 1_000);
    const queue = createSessionQueue(pool, { leaseMs: 1_000, maxFailures: 1 });
    // Renewals that never answer: the lease runs out as if the host were frozen.
    const frozen = { ...queue, renew: () => new Promise<undefined>(() => undefined) } as typeof queue;
    const loop = {
      step: async () => {
        await stores.toolStores.memory.cas('/stalled', 0, 'x');
        await pause(2_300);
        // The server ends the stalled host's connection (its transaction sat idle past the lease, or an admin did).
        await pool.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE state LIKE 'idle in transaction%' AND pid <> pg_backend_pid()");
        await pause(100);
        return stores.toolStores.memory.cas('/stalled', 1, 'y');
      },
    } as unknown as Pick<AskLoop, 'step'>;
    const stop = new AbortController();
    const events: WorkerStepEvent[] = [];
    const stats = await runWorker({ loop, stores, queue: frozen, signal: stop.signal, idleMs: 10, onStep: (event) => (events.push(event), stop.abort()) });
    expect(events.map((event) => event.outcome)).toEqual(['lease-lost']);
    expect(stats).toMatchObject({ leaseLost: 1, failed: 0 });
    // Not counted toward parking it (maxFailures 1 would have parked it).
    expect(await queue.entry('stalled')).toMatchObject({ failures: 0 });
  });

  it("counts a failed step as failed on a host whose clock runs ahead of the database's by more than a lease (the expiry is measured on the host's own clock)", async () => {
    const { pool, stores } = await queuedSessions(['skewed'], 1_000);
    const failure = new Error("a plugin's hook failed");
    const loop = { step: async () => Promise.reject(failure) } as unknown as Pick<AskLoop, 'step'>;
    // This host's wall clock reads 5 s ahead of the database's: every lease the queue gives looks expired by it.
    const realNow = Date.now.bind(Date);
    const skew = vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 5_000);
    try {
      const queue = createSessionQueue(pool, { leaseMs: 1_000, maxFailures: 1 });
      const stop = new AbortController();
      const events: WorkerStepEvent[] = [];
      const stats = await runWorker({ loop, stores, queue, signal: stop.signal, idleMs: 10, onStep: (event) => (events.push(event), stop.abort()) });
      // Before: reported lease-lost, the lease left held and no failure counted, so such a session was never parked.
      expect(events).toMatchObject([{ sid: 'skewed', outcome: 'failed', error: failure }]);
      expect(stats).toMatchObject({ failed: 1, leaseLost: 0 });
      expect(await queue.entry('skewed')).toMatchObject({ state: 'failed', failures: 1, lastError: failure.message });
    } finally {
      skew.mockRestore();
    }
  });

  it.each([
    ['tools', new LoopError({ code: 'LOOP_TOOLS_MISSING', message: "session needs-tools: its agent allows 'tool.fs.*', and this worker has no such tool" })],
    // Review: a plugin's provider that cannot be made here (a key it checks at once) is LOOP_PLUGIN_INVALID since the
    // malformed-provider change; its cause says this host's provider is unusable, so another host may serve it.
    ['working provider', new LoopError({ code: 'LOOP_PLUGIN_INVALID', message: "plugin 'p': provider 'acme' could not make model 'm'", cause: Object.assign(new Error('no API key: set ACME_API_KEY'), { code: 'PROVIDER_CONFIG' }) })],
  ])('leaves a session whose %s it lacks to another host (skipped, not counted), and looks at it again only later', async (_what, lacking) => {
    const { pool, stores } = await queuedSessions(['needs-tools', 'plain']);
    const stepped: string[] = [];
    const loop = {
      step: async (sid: string) => {
        stepped.push(sid);
        if (sid === 'needs-tools') throw lacking;
        return { status: 'RUNNING', turns: 1 };
      },
    } as unknown as Pick<AskLoop, 'step'>;
    // maxFailures 1: one counted failure would park the session.
    const queue = createSessionQueue(pool, { maxFailures: 1, retryDelayMs: 0 });
    const stop = new AbortController();
    const events: WorkerStepEvent[] = [];
    const worker = runWorker({ loop, stores, queue, signal: stop.signal, owner: 'lacking', idleMs: 10, onStep: (event) => events.push(event) });
    for (let waited = 0; events.filter((event) => event.sid === 'plain').length < 3; waited += 1) {
      if (waited > 200) throw new Error(`plain was not stepped: ${JSON.stringify(events.map((event) => [event.sid, event.outcome]))}`);
      await pause(50);
    }
    stop.abort();
    const stats = await worker;
    // Once skipped, the session is left out of this host's requests: 'plain' is stepped again and again meanwhile.
    expect(stepped.filter((sid) => sid === 'needs-tools')).toEqual(['needs-tools']);
    expect(events.find((event) => event.sid === 'needs-tools')).toMatchObject({ outcome: 'skipped', error: lacking });
    expect(stats).toMatchObject({ skipped: 1, failed: 0 });
    // Ready for any other host at once, no failure counted, the reason kept.
    expect(await queue.entry('needs-tools')).toMatchObject({ state: 'ready', failures: 0, lastError: lacking.message });
    const other = await queue.acquire('capable', { exclude: ['plain'] });
    expect(other?.sid).toBe('needs-tools');
  });

  it('offers a step PostgreSQL failed to break a deadlock again at once, not counted as a failure (maxFailures 1 would park it)', async () => {
    const { pools, pool, stores } = await queuedSessions(['deadlocked']);
    const deadlock = await realDeadlock(pools({ max: 2 }));
    expect(deadlock).toMatchObject({ code: '40P01' });
    // What a step sees when one of its statements is the deadlock's victim: the store's wrapping, then the controller's.
    const storeFailure = new LoopError({ code: 'LOOP_STORE_ERROR', message: `the transcript store failed: ${deadlock.message}`, cause: new PostgresStoreError('PG_QUERY_FAILED', `query failed: ${deadlock.message}`, { cause: deadlock }) });
    expect(isTransactionConflict(storeFailure)).toBe(true);
    let steps = 0;
    const loop = {
      step: async () => {
        steps += 1;
        if (steps === 1) throw storeFailure;
        return { status: 'DONE', turns: 1 };
      },
    } as unknown as Pick<AskLoop, 'step'>;
    const queue = createSessionQueue(pool, { maxFailures: 1, retryDelayMs: 600_000 });
    const stop = new AbortController();
    const events: WorkerStepEvent[] = [];
    const worker = runWorker({ loop, stores, queue, signal: stop.signal, owner: 'host', idleMs: 10, onStep: (event) => events.push(event) });
    for (let waited = 0; events.length < 2; waited += 1) {
      if (waited > 200) throw new Error(`not stepped again: ${JSON.stringify(events.map((event) => event.outcome))} ${JSON.stringify(await queue.entry('deadlocked'))}`);
      await pause(50);
    }
    stop.abort();
    expect(events.map((event) => event.outcome)).toEqual(['conflict', 'committed']);
    expect(events[0]?.error).toBe(storeFailure);
    // The stand-in loop saves no turn: its committed step reads as one of a session found ended (no turn ran).
    expect(await worker).toEqual({ committed: 0, ended: 1, leaseLost: 0, conflicts: 1, skipped: 0, failed: 0 });
    expect(await queue.entry('deadlocked')).toMatchObject({ state: 'finished', failures: 0 });
  });

  it('reports the maxConflicts-th conflict in a row as the failed step it counts as (here parking the session)', async () => {
    const { pools, pool, stores } = await queuedSessions(['unlucky']);
    const deadlock = await realDeadlock(pools({ max: 2 }));
    const loop = { step: async () => Promise.reject(deadlock) } as unknown as Pick<AskLoop, 'step'>;
    const queue = createSessionQueue(pool, { maxConflicts: 2, maxFailures: 1 });
    const stop = new AbortController();
    const events: WorkerStepEvent[] = [];
    const worker = runWorker({ loop, stores, queue, signal: stop.signal, owner: 'host', idleMs: 10, onStep: (event) => {
      events.push(event);
      if (events.length === 2) stop.abort();
    } });
    expect(await worker).toEqual({ committed: 0, ended: 0, leaseLost: 0, conflicts: 1, skipped: 0, failed: 1 });
    expect(events.map((event) => event.outcome)).toEqual(['conflict', 'failed']);
    expect(await queue.entry('unlucky')).toMatchObject({ state: 'failed', failures: 1, conflicts: 0 });
  });

  it('commits a step whose tool write lost a deadlock inside a savepoint that was rolled back to: the tool failed, the transaction did not', async () => {
    const { pools } = await queuedSessions(['left', 'right']);
    let holding = 0;
    let bothHold: () => void = () => undefined;
    const crossed = new Promise<void>((resolve) => (bothHold = resolve));
    const handled: unknown[] = [];
    const host = () => {
      const stores = createLeaseBoundStores(pools());
      const loop = {
        step: async (sid: string) => {
          // Scratch writes run in a savepoint each; the two sessions take the same two keys in crossed order.
          const keys = sid === 'left' ? ['A', 'B'] : ['B', 'A'];
          await stores.toolStores.scratch.putCas('shared', keys[0]!, 0, sid, 60_000);
          if (++holding === 2) bothHold();
          await crossed;
          await stores.toolStores.scratch.putCas('shared', keys[1]!, 0, sid, 60_000).catch((error: unknown) => handled.push(error));
          return { status: 'DONE', turns: 1 };
        },
      } as unknown as Pick<AskLoop, 'step'>;
      return { stores, loop, queue: createSessionQueue(pools()) };
    };
    const stop = new AbortController();
    const events: WorkerStepEvent[] = [];
    const workers = [host(), host()].map(({ loop, stores, queue }, index) => runWorker({ loop, stores, queue, signal: stop.signal, owner: `host-${index}`, idleMs: 10, onStep: (event) => events.push(event) }));
    for (let waited = 0; events.length < 2; waited += 1) {
      if (waited > 300) throw new Error(`not stepped: ${JSON.stringify(events.map((event) => [event.sid, event.outcome]))}`);
      await pause(50);
    }
    stop.abort();
    await Promise.all(workers);
    // A deadlock did happen, and the write that lost it failed as a tool's error would; both steps committed once.
    expect(handled).toHaveLength(1);
    expect(isTransactionConflict(handled[0])).toBe(true);
    expect(events.map((event) => event.outcome)).toEqual(['committed', 'committed']);
  });

  it('reports a conflict of a step whose lease another host took meanwhile as a lost lease, and leaves the queue to that host', async () => {
    const { pools, pool, stores } = await queuedSessions(['taken']);
    const deadlock = await realDeadlock(pools({ max: 2 }));
    const loop = {
      step: async () => {
        // Another host took the session over (its lease expired while this one stalled), before this host noticed.
        await pool.query("UPDATE askloop_queue SET lease_token = nextval('askloop_fence'), lease_owner = 'other' WHERE sid = 'taken'");
        throw deadlock;
      },
    } as unknown as Pick<AskLoop, 'step'>;
    const queue = createSessionQueue(pool);
    const stop = new AbortController();
    const events: WorkerStepEvent[] = [];
    const worker = runWorker({ loop, stores, queue, signal: stop.signal, owner: 'stalled', idleMs: 10, onStep: (event) => {
      events.push(event);
      stop.abort();
    } });
    expect(await worker).toEqual({ committed: 0, ended: 0, leaseLost: 1, conflicts: 0, skipped: 0, failed: 0 });
    expect(events).toMatchObject([{ sid: 'taken', outcome: 'lease-lost', error: deadlock }]);
    expect(await queue.entry('taken')).toMatchObject({ state: 'leased', conflicts: 0, failures: 0, lastError: null });
  });

  it("retries the step whose tool write PostgreSQL failed to break a deadlock, though the program went on after the tool's error", async () => {
    const { pools } = await queuedSessions(['left', 'right']);
    // Two hosts; each session's first step writes two memory keys, the two in crossed order, waiting for the other to
    // hold its first key before the second. A write that fails is handled as a program handles a tool's error.
    let holding = 0;
    let bothHold: () => void = () => undefined;
    const crossed = new Promise<void>((resolve) => (bothHold = resolve));
    const attempts: Record<string, number> = {};
    const host = () => {
      const pool = pools();
      const stores = createLeaseBoundStores(pool);
      const loop = {
        step: async (stepSid: string) => {
          attempts[stepSid] = (attempts[stepSid] ?? 0) + 1;
          const keys = stepSid === 'left' ? ['A', 'B'] : ['B', 'A'];
          if (attempts[stepSid] === 1) {
            await stores.toolStores.memory.cas(keys[0]!, 0, stepSid);
            if (++holding === 2) bothHold();
            await crossed;
            await stores.toolStores.memory.cas(keys[1]!, 0, stepSid).catch(() => undefined);
          }
          return { status: 'DONE', turns: 1 };
        },
      } as unknown as Pick<AskLoop, 'step'>;
      return { pool, stores, loop, queue: createSessionQueue(pool) };
    };
    // Either host may lease either session; a host takes the other session only once its step is over.
    const hosts = [host(), host()];
    const stop = new AbortController();
    const events: WorkerStepEvent[] = [];
    const workers = hosts.map(({ loop, stores, queue }, index) => runWorker({ loop, stores, queue, signal: stop.signal, owner: `host-${index}`, idleMs: 10, onStep: (event) => events.push(event) }));
    const queue = createSessionQueue(pools());
    for (let waited = 0; (await queue.counts()).finished < 2; waited += 1) {
      if (waited > 300) throw new Error(`not finished: ${JSON.stringify(events.map((event) => [event.sid, event.outcome]))}`);
      await pause(50);
    }
    stop.abort();
    const stats = await Promise.all(workers);
    // One step lost the deadlock: retried at once as a conflict, with PostgreSQL's own error; nothing counted as failed.
    const conflicts = events.filter((event) => event.outcome === 'conflict');
    expect(conflicts).toHaveLength(1);
    expect(conflicts[0]?.error).toMatchObject({ code: 'PG_QUERY_FAILED', message: expect.stringMatching(/^a statement of the step's transaction failed: deadlock detected/), cause: { code: '40P01' } });
    expect(events.filter((event) => event.outcome === 'committed')).toHaveLength(2);
    expect(stats.reduce((sum, stat) => sum + stat.failed, 0)).toBe(0);
    const loser = conflicts[0]!.sid;
    expect(attempts[loser]).toBe(2);
    expect(await queue.entry(loser)).toMatchObject({ state: 'finished', failures: 0, conflicts: 0 });
    // The winner's two keys are kept; the loser's first write was rolled back with its step.
    const winner = loser === 'left' ? 'right' : 'left';
    const memory = await pools().query<{ key: string; value: string }>('SELECT key, value FROM askloop_memory ORDER BY key');
    expect(memory.rows.map((row) => [row.key, JSON.parse(row.value)])).toEqual([['A', winner], ['B', winner]]);
  });

  it('three hosts share the queue: every session DONE, each turn committed once, no effect twice, no overlap', async () => {
    const { pools } = await freshSchema();
    const turns = 3;
    const labels = Array.from({ length: 9 }, (_, index) => `multi-${index}`);
    await queueSessions(pools(), labels, turns);
    const stop = new AbortController();
    const events: WorkerStepEvent[] = [];
    const hosts = Array.from({ length: 3 }, (_, index) => {
      const pool = pools();
      const { loop, stores } = workerLoop(pool, turns);
      const queue = createSessionQueue(pool);
      return runWorker({ loop, stores, queue, signal: stop.signal, owner: `host-${index}`, idleMs: 10, onStep: (event) => events.push(event) });
    });
    const queue = createSessionQueue(pools());
    for (let waited = 0; (await queue.counts()).finished < labels.length; waited += 1) {
      if (waited > 1200) throw new Error(`not finished: ${JSON.stringify(await queue.counts())} ${JSON.stringify(events.filter((event) => event.outcome !== 'committed'))}`);
      await pause(50);
    }
    stop.abort();
    const stats = await Promise.all(hosts);
    expect(events.filter((event) => event.outcome !== 'committed')).toEqual([]);
    expect(stats.reduce((sum, stat) => sum + stat.committed, 0)).toBe(labels.length * turns);
    const audit = await auditSessions(pools(), turns);
    expect(audit.problems).toEqual([]);
    expect(audit).toMatchObject({ sessions: labels.length, steps: labels.length * turns });
  });

  it('a session queued again after it ended is refused by enqueue, and a stale entry is stepped without a second row in the step log', async () => {
    const { pools } = await freshSchema();
    const turns = 2;
    const [sid] = await queueSessions(pools(), ['again'], turns);
    const pool = pools();
    const { loop, stores } = workerLoop(pool, turns);
    const queue = createSessionQueue(pool);
    const untilFinished = async (steps: number): Promise<WorkerStepEvent[]> => {
      const stop = new AbortController();
      const events: WorkerStepEvent[] = [];
      const worker = runWorker({ loop, stores, queue, signal: stop.signal, owner: 'host', idleMs: 10, onStep: (event) => events.push(event) });
      for (let waited = 0; events.length < steps; waited += 1) {
        if (waited > 600) throw new Error(`not stepped: ${JSON.stringify(events)}`);
        await pause(50);
      }
      stop.abort();
      await worker;
      return events;
    };
    expect((await untilFinished(turns)).map((event) => event.status)).toEqual(['RUNNING', 'DONE']);
    await expect(enqueueSession(pool, sid!)).rejects.toMatchObject({ code: 'PG_SESSION_ENDED', sid });
    // An entry can still name an ended session (queued while its last step was finishing on another host): as if so.
    await pool.query("UPDATE askloop_queue SET state = 'ready', ready_at = clock_timestamp() WHERE sid = $1", [sid]);
    expect(await untilFinished(1)).toMatchObject([{ outcome: 'committed', status: 'DONE', turns }]);
    const log = await pool.query<{ turns: number; status: string }>('SELECT turns, status FROM askloop_steps WHERE sid = $1 ORDER BY id', [sid]);
    expect(log.rows).toEqual([{ turns: 1, status: 'RUNNING' }, { turns: 2, status: 'DONE' }]);
    expect((await auditSessions(pools(), turns)).problems).toEqual([]);
  });

  it('a turn whose model call failed, queued again and failing again, is a row of the step log each time', async () => {
    const { pools } = await freshSchema();
    const pool = pools();
    let calls = 0;
    // Every call fails as a server outage would, at once (no retries): each step halts ERR_PROVIDER at turn 1.
    const down = defineProvider({
      name: 'down',
      settings: { retry: { maxRetries: 0 } },
      attempt: () => async () => {
        calls += 1;
        throw new ProviderError({ code: 'PROVIDER_SERVER', message: 'upstream 503' });
      },
    });
    const plugins = [countingPlugin(1), definePlugin({ name: 'down', specificationVersion: 'v1', providers: { down } })];
    const sid = await createAskLoop({ plugins, store: createPostgresTranscriptStore(pool), pool: sandbox }).create({ agent: { ...countingAgent(1), model: 'down:m' }, task: 'outage', sid: 'outage' });
    const stores = createLeaseBoundStores(pools());
    const loop = createAskLoop({ plugins, store: stores.transcript, toolStores: stores.toolStores, pool: sandbox });
    const queue = createSessionQueue(pool);
    const step = async (): Promise<WorkerStepEvent> => {
      await enqueueSession(pool, sid);
      const stop = new AbortController();
      const events: WorkerStepEvent[] = [];
      const worker = runWorker({ loop, stores, queue, signal: stop.signal, owner: 'host', idleMs: 10, onStep: (event) => {
        events.push(event);
        stop.abort();
      } });
      await worker;
      return events[0]!;
    };
    expect(await step()).toMatchObject({ outcome: 'committed', status: 'HALT', turns: 1 });
    // Queued again, the halted turn runs again (a failed model call may be asked again) and halts again.
    expect(await step()).toMatchObject({ outcome: 'committed', status: 'HALT', turns: 1 });
    expect(calls).toBe(2);
    const log = await pool.query<{ turns: number; status: string }>('SELECT turns, status FROM askloop_steps WHERE sid = $1 ORDER BY id', [sid]);
    expect(log.rows).toEqual([{ turns: 1, status: 'HALT' }, { turns: 1, status: 'HALT' }]);
    expect((await createPostgresTranscriptStore(pool).lastTurn(sid))?.reruns).toBe(1);
    await loop.close();
  });

  it('a turn waiting for approval leaves the queue (paused); approved where it is resumed, it finishes', async () => {
    const { pools } = await freshSchema();
    const pool = pools();
    const [sid] = await queueSessions(pool, ['approve-1'], 1);
    const { loop, stores } = workerLoop(pools(), 1);
    const stop = new AbortController();
    const events: WorkerStepEvent[] = [];
    const queue = createSessionQueue(pools());
    const host = runWorker({ loop, stores, queue, signal: stop.signal, idleMs: 20, onStep: (event) => events.push(event) });
    for (let waited = 0; (await queue.entry(sid!))?.state !== 'paused'; waited += 1) {
      if (waited > 1200) throw new Error(`never paused: ${JSON.stringify(events)}`);
      await pause(25);
    }
    stop.abort();
    await host;
    expect(events).toMatchObject([{ sid, outcome: 'committed', status: 'PAUSED', turns: 0 }]);
    const transcript = createPostgresTranscriptStore(pool);
    expect((await transcript.listTurns(sid!)).map((turn) => turn.phase)).toEqual(['awaiting-approval']);
    // Nothing of the program ran: its memory writes come after the approval.
    expect(await createPostgresToolStores(pool).memory.get('/count/approve-1')).toEqual({ value: null, version: 0 });
    const here = createAskLoop({ plugins: [countingPlugin(1)], store: transcript, pool: sandbox });
    expect(await here.approve(sid!)).toMatchObject({ status: 'DONE', result: 'approve-1', turns: 1 });
    expect(await createPostgresToolStores(pool).memory.get('/count/approve-1')).toEqual({ value: 1, version: 1 });
    await loop.close();
  });

  it('a host whose renewals stalled while another took its session aborts the turn and commits nothing', async () => {
    const { pools } = await freshSchema();
    const pool = pools();
    const [sid] = await queueSessions(pool, ['spin-2'], 1);
    const { loop, stores } = workerLoop(pools(), 1);
    const stop = new AbortController();
    const events: WorkerStepEvent[] = [];
    const host = runWorker({ loop, stores, queue: createSessionQueue(pools(), { leaseMs: 600 }), signal: stop.signal, idleMs: 20, onStep: (event) => events.push(event) });
    const transcript = createPostgresTranscriptStore(pool);
    for (let waited = 0; (await transcript.listTurns(sid!))[0]?.phase !== 'executing'; waited += 1) {
      if (waited > 1200) throw new Error('the turn never started executing');
      await pause(25);
    }
    // As if the host stalled past its lease (a long pause): the lease lapses and another host takes the session.
    await pool.query("UPDATE askloop_queue SET lease_expires_at = clock_timestamp() - interval '1 second' WHERE sid = $1", [sid]);
    const thief = await createSessionQueue(pool).acquire('other-host');
    expect(thief?.sid).toBe(sid);
    for (let waited = 0; events.length === 0; waited += 1) {
      if (waited > 1200) throw new Error('the stalled host never noticed');
      await pause(25);
    }
    stop.abort();
    await host;
    expect(events).toMatchObject([{ sid, outcome: 'lease-lost' }]);
    // Nothing of the turn's effects, no committed step, and the session is the other host's.
    expect(await createPostgresToolStores(pool).memory.get('/count/spin-2')).toEqual({ value: null, version: 0 });
    expect((await pool.query('SELECT count(*)::int AS n FROM askloop_steps')).rows[0]).toEqual({ n: 0 });
    expect((await pool.query('SELECT lease_owner, lease_token FROM askloop_queue WHERE sid = $1', [sid])).rows[0]).toEqual({ lease_owner: 'other-host', lease_token: thief?.token });
    expect((await transcript.listTurns(sid!)).map((turn) => turn.phase)).toEqual(['executing']);
    await loop.close();
  });

  it('a host killed with SIGKILL mid-turn loses nothing: another host re-runs the turn from its record, its uncommitted effects never count', async () => {
    const { pools, name } = await freshSchema();
    const pool = pools();
    const turns = 2;
    const [sid] = await queueSessions(pool, ['spin-1'], turns);
    const script = fileURLToPath(new URL('./support/worker-host.ts', import.meta.url));
    const child = spawn(process.execPath, ['--no-node-snapshot', '--conditions=@askloop/source', script, database.url, name, String(turns), '1000'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const transcript = createPostgresTranscriptStore(pool);
    // The child is spinning inside turn 1 once the turn is executing and its transaction holds the writes.
    for (let waited = 0; ; waited += 1) {
      const [turn] = await transcript.listTurns(sid!);
      const open = (await pool.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE state = 'idle in transaction' AND datname = current_database()")).rows[0] as { n: number };
      if (turn?.phase === 'executing' && open.n > 0) break;
      // 25 s each, both within the test's 60 s, so a stuck wait says which one it was instead of the bare test timeout.
      if (waited > 500 || child.exitCode !== null) throw new Error(`the child never reached turn 1:\n${output}`);
      await pause(50);
    }
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const tools = createPostgresToolStores(pool);
    // Its writes died with its connection: nothing of turn 1's effects is there.
    expect(await tools.memory.get('/count/spin-1')).toEqual({ value: null, version: 0 });
    expect(await tools.idempotence.lookup(sid!, 1, 0)).toBeUndefined();
    // Let the re-run get past the spin, then a host in this process takes over once the lease expires.
    expect(await tools.memory.cas('/go/spin-1', 0, true)).toEqual({ ok: true, version: 1 });
    const { loop, stores } = workerLoop(pools(), turns);
    const stop = new AbortController();
    const events: WorkerStepEvent[] = [];
    const host = runWorker({ loop, stores, queue: createSessionQueue(pools()), signal: stop.signal, idleMs: 20, onStep: (event) => events.push(event) });
    const queue = createSessionQueue(pool);
    for (let waited = 0; (await queue.entry(sid!))?.state !== 'finished'; waited += 1) {
      if (waited > 500) throw new Error(`not finished: ${JSON.stringify(await queue.entry(sid!))} ${JSON.stringify(events)}`);
      await pause(50);
    }
    stop.abort();
    await host;
    const audit = await auditSessions(pool, turns);
    expect(audit.problems).toEqual([]);
    expect(audit).toMatchObject({ sessions: 1, steps: turns, leases: turns + 1 });
    expect(await tools.memory.get('/count/spin-1')).toEqual({ value: turns, version: turns });
    expect(output).toBe('ready\n');
    // The record says turn 1's first run stopped mid-program (its host killed), and when the next host continued it.
    const [first, second] = await transcript.listTurns(sid!);
    expect(first?.interrupted).toEqual([{ phase: 'executing', at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) }]);
    expect(second?.interrupted).toBeUndefined();
    await loop.close();
  });
});
