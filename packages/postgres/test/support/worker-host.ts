/**
 * A worker host as its own process, for the tests that kill hosts: a plain
 * Node 24 script (run with `--no-node-snapshot --conditions=@askloop/source`)
 * that runs `runWorker` with the counting plugin on one sandbox worker until
 * SIGTERM (or until it is killed). It prints `ready` once it is polling, and
 * one JSON line per step.
 *
 * Usage: node … test/support/worker-host.ts <database url> <search_path> <turns> <leaseMs>
 */
import { createAskLoop } from '@askloop/controller';
import { createSandboxPool } from '@askloop/interpreter';
import pg from 'pg';
import { createSessionQueue } from '../../src/queue/session-queue.ts';
import { createLeaseBoundStores } from '../../src/worker/lease-bound-stores.ts';
import { runWorker } from '../../src/worker/run-worker.ts';
import { countingPlugin } from './counting-plugin.ts';

const [url, searchPath, turns, leaseMs] = process.argv.slice(2);
if (url === undefined || searchPath === undefined || turns === undefined || leaseMs === undefined) throw new Error('usage: worker-host.ts <url> <search_path> <turns> <leaseMs>');
const pool = new pg.Pool({ connectionString: url, max: 4, options: `-c search_path=${searchPath}` });
// An idle client's connection error must not crash the host; the next query reports it.
pool.on('error', () => undefined);
const sandbox = createSandboxPool({ workers: 1 });
const stores = createLeaseBoundStores(pool);
// The controller's own session lease lapses with the queue's lease, so a killed host's session moves on as soon. A
// turn's first write removes every earlier turn's idempotence records, however young, inside the step's transaction:
// these hosts die, they never stall, so no host can still be running an earlier turn.
const loop = createAskLoop({ plugins: [countingPlugin(Number(turns))], store: stores.transcript, toolStores: stores.toolStores, pool: sandbox, sessionLeaseMs: Number(leaseMs), idempotenceRetentionMs: 0 });
const stop = new AbortController();
process.once('SIGTERM', () => stop.abort());
process.stdout.write('ready\n');
const stats = await runWorker({
  loop,
  stores,
  queue: createSessionQueue(pool, { leaseMs: Number(leaseMs) }),
  signal: stop.signal,
  idleMs: 20,
  onStep: (event) => process.stdout.write(`${JSON.stringify({ sid: event.sid, outcome: event.outcome, status: event.status, turns: event.turns, error: event.error === undefined ? undefined : String(event.error) })}\n`),
});
process.stdout.write(`${JSON.stringify({ stats })}\n`);
await loop.close();
await sandbox.close();
await pool.end();
