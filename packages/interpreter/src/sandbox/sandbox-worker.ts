/**
 * The host's handle on one worker process: forks it, tells when it is ready,
 * keeps the tail of its stderr (to tell a V8 out-of-memory abort from other
 * deaths), and keeps the host's event loop free while the worker is idle.
 */
import { fork, type ChildProcess } from 'node:child_process';
import type { WorkerEntry } from './worker-entry.ts';
import type { ParentMessage, WorkerMessage } from './worker-protocol.ts';

const STDERR_TAIL_BYTES = 8 * 1024;

/** How a worker process ended. */
export interface WorkerExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The last few KiB the worker wrote to stderr (V8 prints its fatal errors there). */
  readonly stderrTail: string;
}

/** Callbacks from one worker. */
export interface SandboxWorkerEvents {
  message(worker: SandboxWorker, message: WorkerMessage): void;
  exit(worker: SandboxWorker, exit: WorkerExit): void;
}

/** One forked worker process. */
export class SandboxWorker {
  readonly id: number;
  /** Resolves when the worker can take runs; rejects if it dies first. */
  readonly ready: Promise<void>;
  /** Runtime ids this worker holds, least recently used first, with the source sent. */
  readonly runtimes = new Map<string, string>();
  runs = 0;
  isReady = false;
  isDead = false;
  /** The run the worker is busy with (until its `done`), if any. */
  activeRunId: number | undefined;
  readonly #child: ChildProcess;
  #stderr = '';
  #refed = true;

  /** `environment` is added to the host's (the worker reads its settings from `ASKLOOP_SANDBOX_*`). */
  constructor(id: number, entry: WorkerEntry, environment: Readonly<Record<string, string>>, events: SandboxWorkerEvents) {
    this.id = id;
    this.#child = fork(entry.path, [], {
      execArgv: ['--no-node-snapshot', ...entry.execArgv],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      env: { ...inheritedEnvironment(), ...environment },
    });
    this.#child.stderr?.setEncoding('utf8');
    this.#child.stderr?.on('data', (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-STDERR_TAIL_BYTES);
    });
    let settleReady: (error?: Error) => void = () => {};
    this.ready = new Promise<void>((resolve, reject) => {
      settleReady = (error) => (error === undefined ? resolve() : reject(error));
    });
    // Nobody may be waiting on `ready` (a retired worker); keep its rejection from being unhandled.
    this.ready.catch(() => {});
    this.#child.on('message', (message: WorkerMessage) => {
      if (message.type === 'ready') {
        this.isReady = true;
        settleReady();
      }
      events.message(this, message);
    });
    this.#child.on('error', () => {
      // Spawn or IPC failure; 'close' follows and reports the death.
    });
    this.#child.on('exit', () => {
      this.isDead = true;
    });
    // 'close' comes after stderr has been drained, so the tail is complete.
    this.#child.on('close', (code: number | null, signal: NodeJS.Signals | null) => {
      this.isDead = true;
      const exit: WorkerExit = { code, signal, stderrTail: this.#stderr };
      settleReady(new Error(`sandbox worker exited before it was ready (${describeExit(exit)})`));
      events.exit(this, exit);
    });
  }

  /** Sends a message; a dead channel is ignored (the exit handler reports the death). */
  send(message: ParentMessage): void {
    if (this.isDead || !this.#child.connected) return;
    try {
      this.#child.send(message);
    } catch {
      // The worker just died; 'close' will follow.
    }
  }

  /** Keeps the host alive while the worker works, and lets it exit while the worker idles. */
  setBusy(busy: boolean): void {
    if (busy === this.#refed) return;
    this.#refed = busy;
    const handles = [this.#child, this.#child.channel, this.#child.stderr] as Array<{ ref?: () => void; unref?: () => void } | null | undefined>;
    for (const handle of handles) (busy ? handle?.ref : handle?.unref)?.call(handle);
  }

  /** Ends the process now. */
  kill(): void {
    if (this.isDead) return;
    this.isDead = true;
    this.#child.kill('SIGKILL');
  }

  /** Resolves once the process has ended. */
  closed(): Promise<void> {
    if (this.#child.exitCode !== null || this.#child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => this.#child.once('close', () => resolve()));
  }
}

/**
 * The few host variables a worker gets. Not the whole environment: the host's
 * may hold API keys, and nothing in the worker needs them (defence in depth —
 * code in the isolate cannot read the environment anyway). `NODE_OPTIONS` is
 * left out too, so host flags and loaders do not leak into workers.
 */
const INHERITED = ['PATH', 'SYSTEMROOT', 'TZ', 'LANG', 'LC_ALL', 'TMPDIR', 'TEMP', 'TMP'];

function inheritedEnvironment(): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const name of INHERITED) {
    const value = process.env[name];
    if (value !== undefined) environment[name] = value;
  }
  return environment;
}

/** "signal SIGABRT" or "exit code 1". */
export function describeExit(exit: Pick<WorkerExit, 'code' | 'signal'>): string {
  return exit.signal !== null ? `signal ${exit.signal}` : `exit code ${String(exit.code)}`;
}
