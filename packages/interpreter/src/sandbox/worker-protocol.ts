/**
 * Messages between the pool (host process) and a sandbox worker (child
 * process), over the `child_process` IPC channel. Script data inside them is
 * always a JSON string made in the isolate or for it, so nothing but copied
 * plain data crosses either boundary.
 */
import type { SandboxCheckpoint, SandboxErrorCode, SandboxLimitBreach } from './sandbox-error.ts';
import type { SandboxLimits } from './sandbox-limits.ts';
import type { SandboxLocalTools } from './sandbox-types.ts';

/** Start one run. `runtimeSource` is omitted when this worker already has `runtimeId`. */
export interface RunMessage {
  readonly type: 'run';
  readonly runId: number;
  readonly runtimeId: string;
  readonly runtimeSource?: string;
  readonly entry: string;
  readonly inputJson: string;
  readonly limits: SandboxLimits;
  /** Runtime ids the host dropped from its record of this worker; the worker forgets them. */
  readonly evict?: readonly string[];
  /** Tools the worker answers itself (`local-tool-answers.ts`), each reported as a `$local-tool` event. */
  readonly localTools?: SandboxLocalTools;
}

/** The outcome of one tool call, as the JSON of a `ToolOutcome`. */
export interface ToolResultMessage {
  readonly type: 'tool-result';
  readonly runId: number;
  readonly callId: number;
  readonly outcomeJson: string;
  /**
   * How long the host took over the call, in ms: from reading the call to
   * sending this result. The worker charges the run that much of the call's
   * round trip; the rest (the message waiting on a busy host, both ways) is
   * not the run's time. Absent: the whole round trip is charged.
   */
  readonly toolMs?: number;
  /**
   * What is left of the run's `maxToolDataChars` after this call, which the
   * worker's own answers spend from (`localTools`). Absent: the worker
   * answers no more calls itself.
   */
  readonly toolDataLeft?: number;
}

/** Stop a run now: the worker terminates the isolate's execution and discards the isolate. */
export interface CancelMessage {
  readonly type: 'cancel';
  readonly runId: number;
}

/** Host → worker. */
export type ParentMessage = RunMessage | ToolResultMessage | CancelMessage;

/** The worker is up and can take runs. */
export interface ReadyMessage {
  readonly type: 'ready';
}

/**
 * The worker took a run: sent as the entry is called, long before a runaway
 * could kill the process. A worker that dies without having sent it (it died
 * idle, before the host noticed) never ran the run, so the host gives the run
 * to another worker instead of failing it.
 */
export interface StartedMessage {
  readonly type: 'started';
  readonly runId: number;
}

/**
 * Events of the run made before a message, carried by it (kind and payload
 * JSON alternately, as in `EventsMessage`): the host delivers them first.
 * One message instead of two is one write and one wake-up fewer per run.
 */
export interface CarriesEvents {
  readonly events?: readonly string[];
}

/** The script called a tool; the host answers with `tool-result`. */
export interface ToolCallMessage extends CarriesEvents {
  readonly type: 'tool-call';
  readonly runId: number;
  readonly callId: number;
  readonly name: string;
  readonly argsJson: string;
  /** What is left of the run's `wallMs` when it made the call: the host fails the run when the tool takes longer. */
  readonly remainingMs: number;
  /**
   * Where the runtime said the run was as it made the call (`__host.checkpoint`), when it said: what a run the
   * host stops during the call reports (cancelled, out of time), since the host does not wait for its `done`.
   */
  readonly checkpoint?: SandboxCheckpoint;
}

/**
 * The script reported events (`emit`, `whisper`, progress…); fire-and-forget.
 * `events` holds kind and payload JSON alternately, in the order the script
 * made them: the worker sends what arrived in one turn of its event loop
 * together, always before any later message of the run — or, when that
 * message comes first (a tool call, the run's end), inside it.
 */
export interface EventsMessage {
  readonly type: 'events';
  readonly runId: number;
  readonly events: readonly string[];
}

/** How a run ended, seen from the worker. */
export type WorkerOutcome =
  | { readonly ok: true; readonly valueJson: string }
  | { readonly ok: false; readonly code: SandboxErrorCode; readonly message: string; readonly limit?: SandboxLimitBreach; readonly checkpoint?: SandboxCheckpoint };

/** A run ended (also sent for runs the host cancelled; the host then ignores it). */
export interface DoneMessage extends CarriesEvents {
  readonly type: 'done';
  readonly runId: number;
  readonly outcome: WorkerOutcome;
  readonly cpuMs: number;
  /** Isolate heap in use at the end of the run, before its context was released. */
  readonly heapBytes: number;
  /** The worker process's resident set size after the run. */
  readonly rssBytes: number;
}

/**
 * The worker's RSS watchdog fired: some runaways grow memory past the
 * isolate's `memoryLimit` (see README "Sandbox"). The host kills the worker.
 */
export interface MemoryExceededMessage extends CarriesEvents {
  readonly type: 'memory-exceeded';
  readonly runId: number;
  readonly rssBytes: number;
  /** Where the runtime last said the run was (`__host.checkpoint`), when it said. */
  readonly checkpoint?: SandboxCheckpoint;
}

/** Worker → host. */
export type WorkerMessage = ReadyMessage | StartedMessage | ToolCallMessage | EventsMessage | DoneMessage | MemoryExceededMessage;

/**
 * The event kind under which the worker reports a call it answered itself
 * (`localTools`); its payload is a `SandboxLocalToolCall` with the
 * `dataChars` it spent and, when the runtime left one, the `checkpoint` of
 * the call (as a `tool-call` carries it). The worker drops a runtime's event
 * of this kind.
 */
export const LOCAL_TOOL_EVENT = '$local-tool';

/** What a worker prints on stderr when its memory watchdog stops a run, before it may be killed (`deathError` reads it). */
export const WATCHDOG_STDERR_LINE = 'askloop sandbox: the memory watchdog stopped the run';
