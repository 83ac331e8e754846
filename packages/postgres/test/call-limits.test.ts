/**
 * A per-session call limit on workers whose steps fail and run again: the
 * failed runs' calls were rolled back with their steps and never recorded,
 * so they do not count — on the host that ran them as on any other.
 */
import { createAskLoop, definePlugin } from '@askloop/controller';
import { createScriptedProvider } from '@askloop/providers';
import { createSafeToolPacks } from '@askloop/tools';
import type pg from 'pg';
import { expect, it } from 'vitest';
import { applyPostgresMigrations } from '../src/migrate/postgres-migrations.ts';
import { createSessionQueue, enqueueSession } from '../src/queue/session-queue.ts';
import { createPostgresToolStores } from '../src/tools/postgres-tool-stores.ts';
import { createPostgresTranscriptStore } from '../src/transcript/postgres-transcript-store.ts';
import { createLeaseBoundStores } from '../src/worker/lease-bound-stores.ts';
import { runWorker, type WorkerStepEvent } from '../src/worker/run-worker.ts';
import { databaseAndSandbox } from './support/database-and-sandbox.ts';
import { envelope } from './support/envelope.ts';

const setup = databaseAndSandbox();

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes `/once` (a tool allowed once per session), then spins until `/go` is set, so the test can cut its step. */
const PROGRAM = [
  'command',
  '  set w = tool.memory.CAS("/once", 0, 1)',
  '  set go = tool.memory.Get("/go")',
  '  while go[0] == nil',
  '    set spins = 0',
  '    while spins < 20000',
  '      set spins = spins + 1',
  '    endwhile',
  '    set go = tool.memory.Get("/go")',
  '  endwhile',
  '  emit "<<<LOOP:DONE>>> wrote " + w[1]',
  'endcommand',
].join('\n');

const plugin = definePlugin({
  name: 'limited',
  specificationVersion: 'v1',
  providers: { scripted: createScriptedProvider({ models: { once: () => envelope(PROGRAM) } }) },
  toolPacks: createSafeToolPacks(),
  agents: {
    once: {
      name: 'once',
      model: 'scripted:once',
      policy: { allow: ['tool.memory.*'], grants: ['memory:read:/**', 'memory:write:/**'], limits: { tools: { 'tool.memory.CAS': { perSession: 1 } } } },
      quotas: { fuel: 1_000_000_000_000, wallMs: 600_000, toolCalls: 1_000_000_000 },
      ceilings: { maxTurns: 3, fuel: 1_000_000_000_000, wallMs: 3_600_000 },
    },
  },
});

/** Ends the connection of the worker's step transaction once its program has written and is spinning. */
async function cutStep(pool: pg.Pool): Promise<void> {
  for (let waited = 0; ; waited += 1) {
    const open = await pool.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE application_name = 'stepper' AND state LIKE 'idle in transaction%' AND query LIKE '%askloop_memory%' AND datname = current_database()",
    );
    if (open.rows.length > 0) {
      await pool.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = ANY($1::int[])', [open.rows.map((row) => row.pid)]);
      return;
    }
    if (waited > 400) throw new Error('the step never opened its transaction');
    await pause(25);
  }
}

it("a call limited to once per session is not refused on the host whose two runs of the turn were rolled back (their calls never counted)", async () => {
  const pools = await setup.database().schema();
  await applyPostgresMigrations(pools({ max: 1 }));
  const pool = pools();
  const front = createAskLoop({ plugins: [plugin], store: createPostgresTranscriptStore(pool), pool: setup.sandbox() });
  const sid = await front.create({ agent: 'once', task: 'once', sid: 'once' });
  await enqueueSession(pool, sid);
  // One worker: each run of the turn after a failure is on the host whose controller counted the failed run's calls.
  const workerPool = pools({ application_name: 'stepper' });
  const stores = createLeaseBoundStores(workerPool);
  const loop = createAskLoop({ plugins: [plugin], store: stores.transcript, toolStores: stores.toolStores, pool: setup.sandbox() });
  const stop = new AbortController();
  const events: WorkerStepEvent[] = [];
  const worker = runWorker({ loop, stores, queue: createSessionQueue(workerPool, { maxFailures: 5, retryDelayMs: 0 }), signal: stop.signal, idleMs: 10, onStep: (event) => events.push(event) });
  // The server ends the step's connection twice mid-program: each run is rolled back, its write with it.
  for (let cut = 1; cut <= 2; cut += 1) {
    await cutStep(pool);
    for (let waited = 0; events.length < cut; waited += 1) {
      if (waited > 400) throw new Error(`the cut step never failed: ${JSON.stringify(events)}`);
      await pause(25);
    }
  }
  const tools = createPostgresToolStores(pool);
  expect(await tools.memory.get('/once')).toEqual({ value: null, version: 0 });
  await tools.memory.cas('/go', 0, true);
  const queue = createSessionQueue(pool);
  for (let waited = 0; (await queue.entry(sid))?.state !== 'finished'; waited += 1) {
    if (waited > 400) throw new Error(`not finished: ${JSON.stringify(events.map((event) => [event.outcome, String(event.error)]))}`);
    await pause(25);
  }
  stop.abort();
  await worker;
  // Before: the third run was refused its one call (POLICY_CALL_LIMIT) and the session halted for good (ERR_PERMISSIONS).
  expect(events.map((event) => [event.outcome, event.status ?? null, event.reason ?? null])).toEqual([
    ['failed', null, null],
    ['failed', null, null],
    ['committed', 'DONE', null],
  ]);
  const [turn] = await createPostgresTranscriptStore(pool).listTurns(sid);
  // The CAS once, not refused; then the reads of /go: one when the third run starts after /go is set, more when it
  // started first (the worker retries at once) and spun until it was.
  const calls = turn?.toolCalls.map((call) => [call.name, call.error?.code ?? null]) ?? [];
  expect(calls[0]).toEqual(['tool.memory.cas', null]);
  expect(calls.length).toBeGreaterThanOrEqual(2);
  expect(calls.slice(1)).toEqual(calls.slice(1).map(() => ['tool.memory.get', null]));
  expect(await tools.memory.get('/once')).toEqual({ value: 1, version: 1 });
  await loop.close();
  await front.close();
});
