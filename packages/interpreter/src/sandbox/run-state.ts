/**
 * The host's record of one run, and how a run ends. A run settles exactly
 * once — from the worker's `done`, a host-side limit, an abort, a worker's
 * death or the pool closing — whichever comes first.
 */
import { quotaError, SandboxError, type SandboxCheckpoint } from './sandbox-error.ts';
import type { SandboxLimits } from './sandbox-limits.ts';
import type { SandboxResult, SandboxRunRequest } from './sandbox-types.ts';
import { describeExit, type SandboxWorker, type WorkerExit } from './sandbox-worker.ts';
import type { ToolDataBudget } from './tool-outcome.ts';
import { WATCHDOG_STDERR_LINE, type DoneMessage, type WorkerOutcome } from './worker-protocol.ts';

/** One run, from `pool.run` until it settles. */
export interface RunState {
  readonly id: number;
  readonly request: SandboxRunRequest;
  readonly limits: SandboxLimits;
  readonly inputJson: string;
  readonly enqueuedAt: number;
  /** Aborted when the run settles; handed to tool handlers. */
  readonly toolAbort: AbortController;
  /**
   * Runs a function in the async context of the `run()` call (every
   * `AsyncLocalStorage` as it was there): tool calls arrive as the worker's
   * messages, outside it, and must run as part of the caller's work (a
   * worker's step its writes belong to, a trace's span).
   */
  readonly inCallerContext: <R>(fn: () => R) => R;
  readonly resolve: (result: SandboxResult<unknown>) => void;
  readonly reject: (error: unknown) => void;
  /** The worker the run is assigned to (possibly still starting). */
  worker: SandboxWorker | undefined;
  /** Whether the worker has been sent the run. */
  sent: boolean;
  /** Whether the worker confirmed it took the run (its `started`). */
  started: boolean;
  dispatchedAt: number | undefined;
  toolCalls: number;
  /** What is left of `limits.maxToolDataChars` (tool calls' arguments and results, as JSON). */
  readonly toolData: ToolDataBudget;
  /** Workers that died before they could take this run. */
  startAttempts: number;
  settled: boolean;
  /** The queue-wait timer until the run is sent to a worker, then the backstop for a worker that stops answering. */
  timer: NodeJS.Timeout | undefined;
  /**
   * What is left of the run's `wallMs` as the host last learned it — all of
   * it at dispatch, a tool call's `remainingMs`, that less the tool's time
   * once answered — and when the worker's clock last started running it
   * down as far as the host knows (dispatch, or the last tool result sent).
   */
  clockLeftMs: number;
  clockSince: number;
  /** When the backstop timer is due (`performance.now()`), and whether it already fired late once since it was armed. */
  backstopDue: number;
  backstopRechecking: boolean;
  /**
   * One timer per tool call in progress, by call id: each fails the run when its call outlasts what was left of the
   * run's `wallMs`. (Our worker makes one call at a time; the protocol lets a custom one make several.)
   */
  readonly toolTimers: Map<number, NodeJS.Timeout>;
  onAbort: (() => void) | undefined;
  /** The run in whose tool call this run was started (an `ask`'s child turn, say): this run is nested in it. */
  parent: RunState | undefined;
  /** Whether the run is in a tool call during which it started a nested run: its worker waits on them meanwhile. */
  lending: boolean;
  /** Where the runtime said the run was as it made its latest tool call (sent with the call), when it said. */
  lastCall: SandboxCheckpoint | undefined;
}

/** What a tool call's handler runs in (found through `AsyncLocalStorage`): the run, while the call is open. */
export interface ToolCallScope {
  readonly run: RunState;
  open: boolean;
}

/** How a run ends: a value, a typed failure, or (host mistakes only) a rejection. */
export type Settlement =
  | { readonly ok: true; readonly valueJson: string; readonly done: DoneMessage }
  | { readonly ok: false; readonly error: SandboxError; readonly done?: DoneMessage }
  | { readonly reject: unknown };

/** What V8 prints on stderr when an allocation kills the process. */
const OUT_OF_MEMORY = /out of memory|invalid table size|invalid array length|invalid size error|invalid string length|CALL_AND_RETRY_LAST|heap limit|allocation failed|OOM/i;

/** The settlement for a worker's `done`. */
export function fromOutcome(outcome: WorkerOutcome, done: DoneMessage): Settlement {
  if (outcome.ok) return { ok: true, valueJson: outcome.valueJson, done };
  const options = { ...(outcome.limit === undefined ? {} : { limit: outcome.limit }), ...(checkpointOf(outcome.checkpoint) ?? {}) };
  return { ok: false, error: new SandboxError(outcome.code, outcome.message, options), done };
}

/** A worker's checkpoint as `{ checkpoint }` when it is two whole counts >= 0 (a custom worker may send anything). */
export function checkpointOf(value: unknown): { checkpoint: SandboxCheckpoint } | undefined {
  const { line, steps } = (value ?? {}) as Partial<Record<keyof SandboxCheckpoint, unknown>>;
  const valid = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  return valid(line) && valid(steps) ? { checkpoint: { line, steps } } : undefined;
}

/**
 * A failure the host decided itself (the run cancelled, out of time during a
 * tool call, its worker dead or silent) with where the run was at its latest
 * tool call, which the worker sent with the call: the host does not wait for
 * the worker's `done` (nor can a dead one send it). The line only when that
 * call is still open (`callOpen`: the run is there); otherwise line 0, and the
 * steps taken up to the call as a lower bound. A failure that has a checkpoint
 * (the worker's, read when the run ended) keeps it.
 */
export function withLastCall(error: SandboxError, lastCall: SandboxCheckpoint | undefined, callOpen: boolean): SandboxError {
  if (error.checkpoint !== undefined || lastCall === undefined) return error;
  const checkpoint = callOpen ? lastCall : { line: 0, steps: lastCall.steps };
  return new SandboxError(error.code, error.message, { ...(error.limit === undefined ? {} : { limit: error.limit }), checkpoint, cause: error.cause });
}

/** The error for a run whose worker died under it: a memory quota error when V8 or the watchdog said so, else `SANDBOX_WORKER_DIED`. */
export function deathError(exit: WorkerExit, limits: SandboxLimits): SandboxError {
  // V8's words, or the worker's watchdog line (said before it may be killed, when its message might not get through).
  if (OUT_OF_MEMORY.test(exit.stderrTail) || exit.stderrTail.includes(WATCHDOG_STDERR_LINE)) {
    return quotaError('SANDBOX_MEMORY', { name: 'memoryMb', value: limits.memoryMb }, `the run exhausted memory and its worker died (${describeExit(exit)})`);
  }
  return new SandboxError('SANDBOX_WORKER_DIED', `the sandbox worker died during the run (${describeExit(exit)})`);
}
