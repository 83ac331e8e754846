/**
 * The floor of the turns-per-second figure: a host that does only what no
 * host can skip on a turn, on the same machine, against the same model
 * server, with as many sessions at once. Each turn: a bare `node:http`
 * request of the host's size to the loopback model server (the body read to
 * its end; no SDK, no parsing), a script run in a fresh context of an
 * isolate in one of two worker processes with one round trip to the host in
 * the middle (`throughput-floor-worker.ts`), and one SQLite commit of a row
 * as large as a turn record (`openDatabase`'s WAL file). No envelope, parse,
 * check, policy, quotas, events or session rows. Measured in the same runs as
 * the host (alternating), so the machine's drift moves both.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@askloop/tools';
import { bareChatRequests } from './http-floor.ts';

/** A floor host, ready to run sessions. */
export interface ThroughputFloor {
  /** `sessions` sessions of `turns` turns at once; the turns done and the wall time. */
  run(sessions: number, turns: number): Promise<{ readonly turns: number; readonly wallMs: number }>;
  /** The worker processes' ids (for their CPU). */
  readonly workerPids: readonly number[];
  close(): Promise<void>;
}

type WorkerMessage = { kind: 'ready' } | { kind: 'tool-call'; id: number; argument: string } | { kind: 'done'; id: number; result: string } | { kind: 'failed'; id: number; message: string };

// About what the benchmark's program does: a loop, strings, one tool call, a line of output.
const SCRIPT = `let text = ''; for (let i = 0; i < 50; i += 1) text += i % 10;
const answer = new Int32Array(__answer);
__callHost.applySync(undefined, [__id, text]);
while (Atomics.load(answer, 0) === 0) Atomics.wait(answer, 0, 0);
'turn ' + __id + ': ' + answer[1];`;

/** How long one floor run may take, queue excluded, before the floor fails (a run takes well under 1 ms of work). */
const RUN_TIMEOUT_MS = 30_000;

/** Starts the floor against the model server on `port`, its requests `requestBytes` long and its rows `recordBytes`. */
export async function startThroughputFloor(port: number, requestBytes: number, recordBytes: number): Promise<ThroughputFloor> {
  const chat = bareChatRequests(port, requestBytes);

  const directory = mkdtempSync(join(tmpdir(), 'askloop-floor-'));
  const database = openDatabase(join(directory, 'floor.db'));
  database.exec('CREATE TABLE turns (id INTEGER PRIMARY KEY, sid TEXT NOT NULL, record TEXT NOT NULL)');
  const insert = database.prepare('INSERT INTO turns (sid, record) VALUES (?, ?)');
  const record = 'r'.repeat(recordBytes);

  const pending = new Map<number, (result: string) => void>();
  let closing = false;
  /** Runs whose call to the host was answered (for the message of a run that never ends). */
  const answered = new Set<number>();
  /** Set when a worker failed a run or died: every run waiting, and every later one, fails with it (no hang). */
  let broken: Error | undefined;
  const fail = (error: Error): void => {
    broken ??= error;
    for (const settle of pending.values()) settle('');
    pending.clear();
  };
  const workers: { readonly child: ChildProcess; queue: (() => void)[]; busy: boolean }[] = [];
  for (let index = 0; index < 2; index += 1) {
    const child = fork(new URL('./throughput-floor-worker.ts', import.meta.url), [], { execArgv: process.execArgv, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.on('message', (message: WorkerMessage) => {
      if (message.kind === 'tool-call') {
        answered.add(message.id);
        child.send({ kind: 'tool-reply', id: message.id, result: String(message.argument.length) });
      }
      else if (message.kind === 'done') {
        pending.get(message.id)?.(message.result);
        pending.delete(message.id);
      } else if (message.kind === 'failed') fail(new Error(`a floor worker failed a run: ${message.message}`));
    });
    child.once('exit', (code, signal) => {
      if (!closing) fail(new Error(`a floor worker exited (${signal ?? code})`));
    });
    await new Promise<void>((resolve) => child.once('message', () => resolve()));
    workers.push({ child, queue: [], busy: false });
  }
  let nextWorker = 0;
  let nextRun = 1;
  /** Runs the script in the next worker, one run at a time per worker (queued behind its runs). */
  const runScript = (): Promise<string> => {
    if (broken !== undefined) return Promise.reject(broken);
    const worker = workers[nextWorker++ % workers.length] as (typeof workers)[number];
    const id = nextRun++;
    return new Promise<string>((resolve) => {
      const start = () => {
        worker.busy = true;
        // A run that never ends fails the floor (and the benchmark) with what is known of it, rather than hang it.
        const watchdog = setTimeout(() => {
          fail(new Error(`floor run ${id} on worker ${worker.child.pid} got no answer in ${RUN_TIMEOUT_MS} ms (its call to the host ${answered.has(id) ? 'was answered' : 'never came'})`));
        }, RUN_TIMEOUT_MS);
        pending.set(id, (result) => {
          clearTimeout(watchdog);
          answered.delete(id);
          worker.busy = false;
          worker.queue.shift()?.();
          resolve(result);
        });
        worker.child.send({ kind: 'run', id, source: SCRIPT });
      };
      if (worker.busy) worker.queue.push(start);
      else start();
    });
  };

  return {
    workerPids: workers.map((worker) => worker.child.pid as number),
    async run(sessions, turns) {
      const started = performance.now();
      let done = 0;
      await Promise.all(
        Array.from({ length: sessions }, async (_, session) => {
          for (let turn = 0; turn < turns; turn += 1) {
            const replyLength = await chat.send();
            const output = await runScript();
            if (broken !== undefined) throw broken;
            insert.run(`s${session}`, record + replyLength + output);
            done += 1;
          }
        }),
      );
      return { turns: done, wallMs: performance.now() - started };
    },
    async close() {
      closing = true;
      chat.close();
      for (const worker of workers) worker.child.kill();
      database.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
