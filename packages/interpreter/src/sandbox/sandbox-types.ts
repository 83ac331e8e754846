/**
 * The request and result of one sandbox run, and the tool outcome the code in
 * the isolate receives. Everything script-visible is plain JSON data.
 */
import type { NeededGrant } from '../runtime/needed-grant.ts';
import type { RuntimeBundle } from './runtime-bundle.ts';
import type { SandboxError } from './sandbox-error.ts';
import type { SandboxLimits } from './sandbox-limits.ts';
import type { SecretFingerprint } from './secret-fingerprints.ts';

/** A value that survives `JSON.stringify` → `JSON.parse` unchanged. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** What the host's tool handler gets besides the tool's name and arguments. */
export interface ToolCallContext {
  /** Aborted when the run ends (result, timeout, abort, limit); pass it on to slow work. */
  readonly signal: AbortSignal;
  /** 0-based index of this call within the run. */
  readonly index: number;
  /**
   * What was left of the run's `wallMs` when it made the call, as the run
   * counts its time (waits on a busy host excluded); the pool fails the run
   * when the call outlasts it. Bound slow work by this rather than by a
   * deadline taken at the run's start.
   */
  readonly remainingMs?: number;
}

/**
 * Runs a tool in the host. May be async; its time counts against `wallMs`.
 * Return JSON data. A throw becomes a `ToolOutcome` failure in the isolate
 * (`code` from the thrown value's string `code`, else `TOOL_FAILED`); it
 * does not end the run.
 */
export type ToolCallHandler = (name: string, args: unknown, context: ToolCallContext) => unknown;

/** Receives `__host.event(kind, payload)` calls live, in the order the script made them. */
export type SandboxEventHandler = (kind: string, payload: unknown) => void;

/** What `__host.callTool` returns inside the isolate. */
export type ToolOutcome =
  | { readonly ok: true; readonly value: JsonValue }
  | {
      readonly ok: false;
      /**
       * `numericCode` and `grant` when the thrown value had them (a `HostCallError`: a tool's reference code, the grant
       * a denial needs; see `ScriptErrorData`).
       */
      readonly error: { readonly code: string; readonly message: string; readonly numericCode?: number; readonly grant?: NeededGrant };
    };

/**
 * Tools the worker answers itself in a run, without a round trip to the host
 * (`sandbox/local-tool-answers.ts`). The module must compute each result from
 * the arguments alone: a call it declines, or whose result fails a check, goes
 * to `onToolCall`, which runs it again.
 */
export interface SandboxLocalTools {
  /**
   * URL of an ES module the worker imports (once, the first time a run names
   * it; until it is loaded calls go to the host). It exports
   * `callLocalTool(name, args, limits)`, which returns the result or
   * `undefined` for a call the host must answer.
   */
  readonly module: string;
  /** Names (as the runtime calls them) of the tools the worker answers; any other call goes to `onToolCall`. */
  readonly names: readonly string[];
  /** Passed to `callLocalTool`, and the limits a result is held to (the run's). */
  readonly limits: { readonly stringLength: number; readonly collectionSize: number };
  /**
   * Fingerprints of the secrets the host hides from tool results
   * (`secretFingerprints`): a result holding one is left to `onToolCall`,
   * whose host hides it. The worker never holds the secrets themselves.
   */
  readonly secrets?: readonly SecretFingerprint[];
}

/** A call the worker answered itself, reported in its place among the run's events (`onLocalToolCall`). */
export interface SandboxLocalToolCall {
  readonly name: string;
  /** The arguments as the runtime passed them (copied JSON). */
  readonly args: JsonValue;
  readonly result: JsonValue;
  /** How long the worker took over it. */
  readonly durationMs: number;
}

/** One run: load `runtime` in a fresh context and call its global `entry` with `input`. */
export interface SandboxRunRequest {
  readonly runtime: RuntimeBundle;
  /** Name of the global function the runtime defines; called as `entry(input)`. */
  readonly entry: string;
  /** JSON data, copied into the isolate as the entry's only argument. */
  readonly input: unknown;
  /** Overrides of the pool's default limits for this run. */
  readonly limits?: Partial<SandboxLimits>;
  readonly onToolCall: ToolCallHandler;
  readonly onEvent?: SandboxEventHandler;
  /** Tools the worker may answer itself; each such call is reported to `onLocalToolCall`, in order with the events. */
  readonly localTools?: SandboxLocalTools;
  /** Told of each call the worker answered (`localTools`), after the events made before it; a throw fails the run. */
  readonly onLocalToolCall?: (call: SandboxLocalToolCall) => void;
  /** Aborting fails the run with `SANDBOX_ABORTED` (queued or running). */
  readonly signal?: AbortSignal;
  /**
   * Called when the run is handed to a worker, after any wait in the pool's
   * queue: the run's wall clock (`wallMs`) starts here, not at `pool.run`. A
   * host that bounds its own work by the run's time (a tool deadline) starts
   * its clock here too. Called again if the worker dies before it could take
   * the run and the run moves to another. A throw rejects the run.
   */
  readonly onStart?: () => void;
}

/** What a run used. */
export interface SandboxUsage {
  /** From dispatch to a worker until the result, including tool-call time. */
  readonly wallMs: number;
  /** Time spent waiting for a free worker before that (not counted against `wallMs`). */
  readonly queueMs: number;
  /** CPU time of the isolate; absent when the run was terminated. */
  readonly cpuMs?: number;
  /** Tool calls made, counting refused and failed ones. */
  readonly toolCalls: number;
  /** Isolate heap in use at the end of the run; absent when the run was terminated. */
  readonly heapBytes?: number;
}

/** The result of a run: the entry's JSON value, or a typed sandbox error. */
export type SandboxResult<Value = unknown> =
  | { readonly ok: true; readonly value: Value; readonly usage: SandboxUsage }
  | { readonly ok: false; readonly error: SandboxError; readonly usage: SandboxUsage };
