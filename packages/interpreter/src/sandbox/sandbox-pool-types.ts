/** The pool's public shape: its options, its stats and its methods. */
import type { SandboxLimits } from './sandbox-limits.ts';
import type { SandboxResult, SandboxRunRequest } from './sandbox-types.ts';
import type { WorkerEntry } from './worker-entry.ts';

/** Options of `createSandboxPool`. */
export interface SandboxPoolOptions {
  /** Worker processes; default 2. */
  readonly workers?: number;
  /** Default limits of every run; a request may override each. */
  readonly limits?: Partial<SandboxLimits>;
  /** Replace a worker after this many runs; default 10,000; `Infinity`: never. */
  readonly maxRunsPerWorker?: number;
  /** Replace a worker whose resident memory after a run exceeds this; default 1,024 MiB; `Infinity`: never. */
  readonly maxWorkerRssMb?: number;
  /** After a host-side stop (timeout, abort, limit), how long a worker may take to confirm before it is killed; default 1,000 ms. */
  readonly cancelGraceMs?: number;
  /**
   * How long a run may wait for a worker (in the queue, or for a starting
   * worker) before it ends with `SANDBOX_QUEUE_TIMEOUT`, never having run;
   * default 120,000 ms (at most 2^31 − 1). The wait does not count against the run's `wallMs`.
   */
  readonly maxQueueMs?: number;
  /**
   * How long past what is left of a run's `wallMs` the host waits for a
   * worker that does not end the run (the worker's own clock normally does)
   * before it fails the run with `SANDBOX_TIMEOUT` and stops the worker's
   * run. The wait starts at dispatch and again at each tool result; a
   * backstop that fires more than 50 ms late (the host's event loop was
   * stalled) looks once more, 100 ms later, before it fails anything.
   * Default: the run's `wallMs`, at least 1,000 ms.
   */
  readonly backstopGraceMs?: number;
  /**
   * Workers the pool may start beyond `workers` for runs started inside
   * another run's tool call (an `ask`'s child loop): one for each run whose
   * tool call waits on such runs, for as long as that call lasts. Runs that
   * are not nested never hold more than `workers`. Give at least `workers` ×
   * the depth of nesting (`ask` inside `ask`…: the controller's
   * `maxAskDepth`, default 2) so nested runs always find a worker. Default
   * 4 × `workers`; the extra workers stop when the calls that needed them end.
   */
  readonly maxNestedWorkers?: number;
  /** Runtime bundles each worker keeps compiled; default 16. */
  readonly maxRuntimesPerWorker?: number;
  /**
   * The worker's memory watchdog: during a run, resident memory above the
   * run's start + max(`factor` × `memoryMb`, `floorMb`) MiB kills the worker
   * with `SANDBOX_MEMORY`. Defaults: factor 4, floor 256.
   */
  readonly memoryWatchdog?: { readonly factor?: number; readonly floorMb?: number };
  /** The worker script to fork; found next to this module by default. */
  readonly workerEntry?: WorkerEntry;
}

/** A snapshot of the pool's state. */
export interface SandboxPoolStats {
  /** Configured number of workers. */
  readonly size: number;
  /**
   * Worker processes, starting ones included, and killed ones until they
   * have exited: more than `size` while runs wait on nested runs.
   */
  readonly workers: number;
  readonly busy: number;
  readonly queued: number;
  /** Runs in a tool call during which they started nested runs (each lets the pool run one worker more). */
  readonly lending: number;
  /** Runs settled so far. */
  readonly runs: number;
  readonly workersStarted: number;
  /** Workers that died unexpectedly (crash, runaway, killed after a stop). */
  readonly workerDeaths: number;
  readonly closed: boolean;
}

/** A pool of sandbox workers. Close it when done; an idle pool does not keep the process alive. */
export interface SandboxPool {
  /** The default limits of runs on this pool. */
  readonly limits: SandboxLimits;
  /**
   * Runs `request.runtime`'s `entry` on `request.input` in a fresh context.
   * Resolves with the entry's value or a typed error for anything the code in
   * the isolate did; rejects only for host mistakes (invalid request, closed
   * pool, a worker that cannot start, a throwing `onEvent`).
   */
  run<Value = unknown>(request: SandboxRunRequest): Promise<SandboxResult<Value>>;
  /** Starts all workers now instead of at the first runs. */
  warmup(): Promise<void>;
  stats(): SandboxPoolStats;
  /** Fails queued and running runs with `SANDBOX_POOL_CLOSED` and kills every worker. */
  close(): Promise<void>;
}
