/**
 * Parsing under supervision: a warm worker thread, reused between parses,
 * with a heap limit (`resourceLimits`) and a wall-clock deadline after which
 * it is terminated; the next parse starts a fresh one. Ohm's matcher costs
 * about 2.3 µs and ~1 KB of memo tables per source character, so a large
 * program would otherwise cost the host seconds and gigabytes; here it costs
 * at most the limits, and the answer is a typed `SCRIPT_PARSE_LIMIT`
 * diagnostic. Parses run one at a time, in call order.
 */
import { Worker } from 'node:worker_threads';
import type { Diagnostic } from './diagnostic.ts';
import { makeDiagnostic, type ParseResult } from './parse.ts';
import type { ParseRequest } from './parse-worker.ts';
import { parseWorkerUrl } from './parse-worker-entry.ts';

/** Limits of the supervised parse. */
export interface ParseSupervisorOptions {
  /** Wall-clock for one parse, from dispatch to answer, worker start included (default 5,000 ms, as the run's `wallMs`). */
  readonly timeoutMs?: number;
  /** The worker's old-generation heap limit in MiB (default 128). */
  readonly memoryMb?: number;
  /** The worker file (default: found beside this module, see `parseWorkerUrl`). */
  readonly workerUrl?: URL;
}

/** Counters, for tests and monitoring. */
export interface ParseSupervisorStats {
  readonly parses: number;
  readonly workersStarted: number;
  /** Workers terminated at the deadline or lost to the heap limit. */
  readonly workersKilled: number;
  readonly queued: number;
}

/** A supervised parser: `parse` never rejects for anything the source does. */
export interface ParseSupervisor {
  parse(source: string, fileName?: string): Promise<ParseResult>;
  /** Starts the worker ahead of the first parse. */
  warmup(): void;
  stats(): ParseSupervisorStats;
  /** Terminates the worker; later parses start a new one. */
  close(): Promise<void>;
}

/** Default wall-clock for one supervised parse, in ms. */
export const DEFAULT_PARSE_TIMEOUT_MS = 5_000;
/** Default old-generation heap limit of the parse worker, in MiB. */
export const DEFAULT_PARSE_MEMORY_MB = 128;

interface Job {
  readonly request: ParseRequest;
  readonly resolve: (result: ParseResult) => void;
}

/** Creates a supervised parser (see the module comment). */
export function createParseSupervisor(options: ParseSupervisorOptions = {}): ParseSupervisor {
  const timeoutMs = options.timeoutMs ?? DEFAULT_PARSE_TIMEOUT_MS;
  const memoryMb = options.memoryMb ?? DEFAULT_PARSE_MEMORY_MB;
  const workerUrl = options.workerUrl ?? parseWorkerUrl();
  const queue: Job[] = [];
  let worker: Worker | undefined;
  /** The parse in progress and the worker it runs on (a dying worker settles only its own parse). */
  let current: { job: Job; worker: Worker; settle: (result: ParseResult) => void } | undefined;
  let nextId = 1;
  let parses = 0;
  let workersStarted = 0;
  let workersKilled = 0;

  const limitResult = (job: Job, message: string): ParseResult => ({
    ok: false,
    diagnostics: [makeDiagnostic('SCRIPT_PARSE_LIMIT', message, 1, 1, job.request.fileName) satisfies Diagnostic],
  });

  const start = (): Worker => {
    const started = new Worker(workerUrl, {
      resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    workersStarted += 1;
    started.on('message', (message: { id: number; result: ParseResult }) => {
      if (current?.worker === started && message.id === current.job.request.id) current.settle(message.result);
    });
    started.on('error', (error: Error & { code?: string }) => {
      if (worker === started) worker = undefined;
      if (current?.worker !== started) return;
      workersKilled += 1;
      const out = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      current.settle(
        limitResult(
          current.job,
          out
            ? `Parsing this script needed more than ${memoryMb} MiB (limit parse memoryMb = ${memoryMb}). Write a shorter program, or split the work across turns.`
            : `The parser stopped before it could answer (${error.code ?? error.name}). Write a shorter, simpler program.`,
        ),
      );
    });
    started.on('exit', () => {
      if (worker === started) worker = undefined;
      if (current?.worker === started) current.settle(limitResult(current.job, 'The parser stopped before it could answer. Write a shorter, simpler program.'));
    });
    started.unref();
    return started;
  };

  const pump = (): void => {
    if (current !== undefined) return;
    const job = queue.shift();
    if (job === undefined) {
      worker?.unref();
      return;
    }
    const active = worker ?? start();
    worker = active;
    active.ref();
    let settled = false;
    const timer = setTimeout(() => {
      workersKilled += 1;
      if (worker === active) worker = undefined;
      void active.terminate();
      settle(limitResult(job, `Parsing this script took longer than ${timeoutMs} ms (limit parse timeoutMs = ${timeoutMs}). Write a shorter program, or split the work across turns.`));
    }, timeoutMs);
    const settle = (result: ParseResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      current = undefined;
      parses += 1;
      job.resolve(result);
      pump();
    };
    current = { job, worker: active, settle };
    active.postMessage(job.request);
  };

  return {
    parse(source, fileName) {
      return new Promise<ParseResult>((resolve) => {
        queue.push({ request: { id: nextId++, source, ...(fileName === undefined ? {} : { fileName }) }, resolve });
        pump();
      });
    },
    warmup() {
      worker ??= start();
    },
    stats: () => ({ parses, workersStarted, workersKilled, queued: queue.length }),
    async close() {
      const closing = worker;
      worker = undefined;
      if (closing !== undefined) await closing.terminate();
    },
  };
}
