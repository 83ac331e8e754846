/**
 * The crash test: three worker processes run 200 sessions of 5 turns each
 * (a scripted model; every turn has tool effects on the memory store),
 * while every second a random worker is killed with SIGKILL and a new one
 * started. At the end every session is DONE with exactly its 5 turns, each
 * turn committed once (the step log), no tool effect applied twice (the
 * counters) and each recorded once (the idempotence records, none pending;
 * the workers keep only the last turn's, removing earlier turns' at each
 * turn's first write inside its step), and no two steps of one session overlapping in time (the
 * database's own timestamps). `ASKLOOP_CRASH_SESSIONS` sets another size.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createAskLoop } from '@askloop/controller';
import { createSandboxPool } from '@askloop/interpreter';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPostgresMigrations } from '../src/migrate/postgres-migrations.ts';
import { createSessionQueue, enqueueSession } from '../src/queue/session-queue.ts';
import { createPostgresTranscriptStore } from '../src/transcript/postgres-transcript-store.ts';
import { auditSessions } from './support/audit-sessions.ts';
import { countingPlugin } from './support/counting-plugin.ts';
import { createTestDatabase, type TestDatabase } from './support/test-database.ts';

const SESSIONS = Number(process.env.ASKLOOP_CRASH_SESSIONS ?? 200);
const TURNS = 5;
const WORKERS = 3;
const LEASE_MS = 2000;
const KILL_EVERY_MS = 1000;
/** Gives up when no step was committed for this long (a deadline for the whole run fails a slow machine, not a bug). */
const STALLED_MS = 60_000;

let database: TestDatabase;
const alive = new Set<ChildProcess>();
// Replacement workers start several times a second: Node's compile cache roughly halves their start-up CPU.
const compileCache = mkdtempSync(path.join(tmpdir(), 'askloop-crash-cache-'));
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  for (const child of alive) child.kill('SIGKILL');
  await database.drop();
  rmSync(compileCache, { recursive: true, force: true });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const script = fileURLToPath(new URL('./support/worker-host.ts', import.meta.url));

describe('crash test', () => {
  it(`${WORKERS} workers, ${SESSIONS} sessions × ${TURNS} turns, a worker SIGKILLed every second: all DONE, nothing twice, no overlap`, { timeout: 20 * 60_000 }, async () => {
    const pools = await database.schema();
    const pool: pg.Pool = pools();
    await applyPostgresMigrations(pool);
    const searchPath = 's_1';
    const sandbox = createSandboxPool({ workers: 1 });
    const creator = createAskLoop({ plugins: [countingPlugin(TURNS)], store: createPostgresTranscriptStore(pool), pool: sandbox });
    for (let index = 0; index < SESSIONS; index += 1) {
      const sid = await creator.create({ agent: 'counter', task: `crash-${index}`, sid: `crash-${index}` });
      await enqueueSession(pool, sid);
    }
    await creator.close();
    await sandbox.close();

    const logs: string[] = [];
    // The steps each worker committed (its stdout has a line per step): only a worker that has committed one is
    // killed. A replacement takes seconds to start on a loaded machine; killing those stopped all progress (one run
    // finished no session in 240 s).
    const committed = new Map<ChildProcess, number>();
    let steps = 0;
    const start = (): ChildProcess => {
      const child = spawn(process.execPath, ['--no-node-snapshot', '--conditions=@askloop/source', script, database.url, searchPath, String(TURNS), String(LEASE_MS)], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, NODE_COMPILE_CACHE: compileCache },
      });
      committed.set(child, 0);
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (!line.includes('"outcome":"committed"')) return;
        committed.set(child, (committed.get(child) ?? 0) + 1);
        steps += 1;
      });
      child.stderr?.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
      alive.add(child);
      child.once('exit', () => alive.delete(child));
      return child;
    };
    for (let index = 0; index < WORKERS; index += 1) start();

    const queue = createSessionQueue(pool);
    const began = Date.now();
    let kills = 0;
    let progress = { steps, at: Date.now() };
    while ((await queue.counts()).finished < SESSIONS) {
      if (steps > progress.steps) progress = { steps, at: Date.now() };
      if (Date.now() - progress.at > STALLED_MS) throw new Error(`gave up: no step committed for ${STALLED_MS / 1000} s: ${JSON.stringify(await queue.counts())}\n${logs.join('')}`);
      await pause(KILL_EVERY_MS);
      const victims = [...alive].filter((child) => (committed.get(child) ?? 0) > 0);
      const victim = victims[Math.floor(Math.random() * victims.length)];
      if (victim !== undefined) {
        victim.kill('SIGKILL');
        alive.delete(victim);
        kills += 1;
        start();
      }
    }
    const seconds = (Date.now() - began) / 1000;
    const exits = [...alive].map((child) => new Promise((resolve) => child.once('exit', resolve)));
    for (const child of alive) child.kill('SIGTERM');
    await Promise.all(exits);

    const audit = await auditSessions(pool, TURNS);
    // The figures for the package README: how long it took and how many leases the kills cost.
    console.log(`crash test: ${SESSIONS} sessions × ${TURNS} turns in ${seconds.toFixed(1)} s, ${kills} workers killed, ${audit.leases} leases for ${audit.steps} committed steps`);
    expect(audit.problems).toEqual([]);
    expect(audit).toMatchObject({ sessions: SESSIONS, steps: SESSIONS * TURNS });
    expect(kills).toBeGreaterThan(0);
    // The workers keep no idempotence retention: each turn's first write removed the earlier turns' records inside its
    // step, so only the last turn's are left (the audit above allows those of earlier turns, which other hosts keep).
    // Without it there would be SESSIONS × TURNS; a turn whose records are as young as the millisecond the next turn
    // first wrote in is kept, so a few may be left.
    const recordedTurns = (await pool.query<{ n: number }>('SELECT count(DISTINCT (session, turn))::int AS n FROM askloop_idempotence')).rows[0]?.n ?? 0;
    expect(recordedTurns).toBeGreaterThanOrEqual(SESSIONS);
    expect(recordedTurns).toBeLessThan(SESSIONS * 1.1);
    expect(logs.join('')).toBe('');
  });
});
