/**
 * `pnpm bench`: throughput and fairness of 1, 2 and 4 worker processes
 * against one PostgreSQL database (a throwaway server), and the same
 * workload on one host with the embedded SQLite store as the baseline,
 * measured in the same run. Workload: sessions of the counting agent (5
 * turns, three memory writes a turn, scripted model). Throughput is
 * committed turns per second from the moment every worker is ready;
 * fairness is the spread of the sessions' finishing times and each worker's
 * share of the turns.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAskLoop, createSqliteTranscriptStore } from '@askloop/controller';
import { createSandboxPool } from '@askloop/interpreter';
import pg from 'pg';
import { applyPostgresMigrations } from '../src/migrate/postgres-migrations.ts';
import { createPostgresTranscriptStore } from '../src/transcript/postgres-transcript-store.ts';
import { startPostgresServer } from '../src/testing/postgres-server.ts';
import { countingPlugin } from '../test/support/counting-plugin.ts';
import { QUICK, report } from '../../../scripts/bench-harness.ts';

const SESSIONS = Number(process.env.ASKLOOP_BENCH_SESSIONS ?? (QUICK ? 6 : 40));
const TURNS = 5;
const script = fileURLToPath(new URL('../test/support/worker-host.ts', import.meta.url));
const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

const server = await startPostgresServer();
const cache = mkdtempSync(path.join(tmpdir(), 'askloop-bench-'));
const rows: string[][] = [];
const data: unknown[] = [];
let baseline = NaN;
try {
  // Baseline: one host, the SQLite store, every session run to the end in turn.
  {
    const sandbox = createSandboxPool({ workers: 1 });
    const loop = createAskLoop({ plugins: [countingPlugin(TURNS)], store: createSqliteTranscriptStore(path.join(cache, 'sessions.db')), pool: sandbox });
    const sids = [];
    for (let index = 0; index < SESSIONS; index += 1) sids.push(await loop.create({ agent: 'counter', task: `base-${index}` }));
    const started = performance.now();
    for (const sid of sids) await loop.resume(sid);
    const seconds = (performance.now() - started) / 1000;
    const rate = (SESSIONS * TURNS) / seconds;
    baseline = rate;
    rows.push(['baseline: 1 host, SQLite file, sessions one after another', rate.toFixed(1), '—', '—', '1.00×']);
    data.push({ setup: 'sqlite', turnsPerSecond: rate });
    await loop.close();
    await sandbox.close();
    console.error(`baseline done in ${seconds.toFixed(1)} s`);
  }
  for (const workers of [1, 2, 4]) {
    const schema = `bench_${workers}`;
    const admin = new pg.Pool({ connectionString: server.url, max: 2 });
    await admin.query(`CREATE SCHEMA ${schema}`);
    await admin.end();
    const pool = new pg.Pool({ connectionString: server.url, max: 4, options: `-c search_path=${schema}` });
    await applyPostgresMigrations(pool);
    const sandbox = createSandboxPool({ workers: 1 });
    const creator = createAskLoop({ plugins: [countingPlugin(TURNS)], store: createPostgresTranscriptStore(pool), pool: sandbox });
    const sids: string[] = [];
    for (let index = 0; index < SESSIONS; index += 1) sids.push(await creator.create({ agent: 'counter', task: `bench-${index}` }));
    await creator.close();
    await sandbox.close();
    const children: ChildProcess[] = [];
    const ready = Array.from({ length: workers }, () => {
      const child = spawn(process.execPath, ['--no-node-snapshot', '--conditions=@askloop/source', script, server.url, schema, String(TURNS), '30000'], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_COMPILE_CACHE: cache } });
      children.push(child);
      return new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));
    });
    await Promise.all(ready);
    const started = await pool.query<{ now: Date }>('SELECT clock_timestamp() AS now');
    await pool.query("INSERT INTO askloop_queue (sid, state, ready_at) SELECT sid, 'ready', clock_timestamp() FROM askloop_sessions");
    for (;;) {
      const done = await pool.query<{ n: number }>("SELECT count(*)::int AS n FROM askloop_queue WHERE state = 'finished'");
      if (done.rows[0]!.n === SESSIONS) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const t0 = started.rows[0]!.now.getTime();
    const finished = (await pool.query<{ at: Date }>('SELECT max(committed_at) AS at FROM askloop_steps GROUP BY sid')).rows.map((row) => (row.at.getTime() - t0) / 1000).sort((a, b) => a - b);
    const shares = (await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM askloop_steps GROUP BY host')).rows.map((row) => row.n).sort((a, b) => a - b);
    const seconds = finished.at(-1)!;
    const rate = (SESSIONS * TURNS) / seconds;
    rows.push([
      `${workers} worker process${workers === 1 ? '' : 'es'}, PostgreSQL`,
      rate.toFixed(1),
      `${quantile(finished, 0.1).toFixed(1)} / ${quantile(finished, 0.5).toFixed(1)} / ${quantile(finished, 0.9).toFixed(1)} s`,
      shares.join(' / '),
      `${(rate / baseline).toFixed(2)}×`,
    ]);
    data.push({ setup: `postgres-${workers}`, turnsPerSecond: rate, finishedSeconds: finished, turnsPerWorker: shares });
    for (const child of children) child.kill('SIGTERM');
    await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))));
    await pool.end();
    console.error(`${workers} workers done in ${seconds.toFixed(1)} s`);
  }
} finally {
  server.stop();
  rmSync(cache, { recursive: true, force: true });
}
report({
  id: 'postgres.workers',
  title: 'Workers on one PostgreSQL database',
  peer: 'the same workload on one host with the embedded SQLite store, measured in the same run',
  note: `Node ${process.version}; ${SESSIONS} sessions × ${TURNS} turns (three memory writes a turn, scripted model); PostgreSQL on loopback in a throwaway cluster; turns/s from when every worker is ready. Fairness: the spread of the sessions' finishing times and each worker's share of the turns.`,
  columns: ['setup', 'turns/s', 'sessions finished p10 / p50 / p90', 'turns per worker', 'vs baseline'],
  rows,
  data,
});
