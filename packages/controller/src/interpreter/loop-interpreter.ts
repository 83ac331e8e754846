/**
 * The interpreter as the loop sees it: prepare (parse + whole-program check,
 * before anything runs), then execute (a fresh sandbox context with quotas).
 * An interface, so loop tests can also run without isolated-vm; the real one
 * is `createDefaultInterpreter`, over `@askloop/interpreter`'s
 * `createInterpreter`, whose `prepare`/`execute` have these shapes but for
 * `execute`'s `ask` hook: a bare interpreter refuses that option (it answers
 * `ask` through its orchestrator), which the loop passes only for an agent
 * that lists agents to ask — so a bare one serves agents that ask no one.
 */
import type { Diagnostic, ErrorKind, JsonValue, LocalTools, Program, RunLimits, RunResult, ScriptErrorData, ToolBridgeCallOptions, ToolCatalog } from '@askloop/interpreter';

/** Error kinds of the interpreter's one code table: the loop maps kinds, never codes, to halt reasons. */
export type ScriptErrorKind = ErrorKind;

/** A checked program: plain JSON, stored with the turn and runnable later (after an approval, on resume). */
export interface PreparedProgram {
  readonly mode: 'agent' | 'host';
  readonly program: Program;
  readonly libraries: readonly Program[];
  /** Canonical names of every tool the check approved; the only tools the run may call. */
  readonly approvedTools: readonly string[];
}

/** Options of {@link LoopInterpreter.prepare}. */
export interface PrepareOptions {
  readonly mode?: 'agent' | 'host';
  /** The turn's policy-filtered catalogue; its `check` is the one policy decision. */
  readonly catalog?: ToolCatalog;
  readonly fileName?: string;
  /** Whether `ask` statements may reach an orchestrator. */
  readonly allowAsk?: boolean;
  /** The names `execute` binds for the program (`userdata`, …): a map key written as a bare name none binds is refused. */
  readonly globalNames?: readonly string[];
}

/** The outcome of `prepare`: a runnable program (with warnings), or the diagnostics that stop it. */
export type PrepareResult =
  | { readonly ok: true; readonly prepared: PreparedProgram; readonly diagnostics: readonly Diagnostic[] }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** One tool call as the run saw it (for the transcript). */
export interface ToolCallObservation {
  readonly name: string;
  readonly args: readonly JsonValue[];
  readonly result?: JsonValue;
  readonly error?: ScriptErrorData;
  readonly durationMs: number;
}

/** How a run reaches tools: `@askloop/tools`' per-turn `ToolHost` fits this shape. */
export interface LoopToolBridge {
  readonly catalog?: ToolCatalog;
  /** `options.timeLeftMs`: what is left of the run's wall clock at this call (the tool host may let the call run that long). */
  call(name: string, args: readonly JsonValue[], options?: ToolBridgeCallOptions): unknown;
  /** Books a call the sandbox worker answered itself (`ExecuteOptions.localTools`): the tool host's `recordLocalCall`. */
  recordLocalCall?(name: string): void;
}

/** Options of {@link LoopInterpreter.execute}. */
export interface ExecuteOptions {
  readonly tools?: LoopToolBridge;
  /** Pure built-in tools the sandbox worker answers itself, each booked on `tools` (`workerLocalTools`, `@askloop/tools`). */
  readonly localTools?: LocalTools;
  readonly limits?: Partial<RunLimits>;
  readonly signal?: AbortSignal;
  readonly userdata?: JsonValue;
  readonly globals?: Readonly<Record<string, JsonValue>>;
  readonly onEmit?: (text: string) => void;
  readonly onWhisper?: (target: string, text: string) => void;
  readonly onToolCall?: (call: ToolCallObservation) => void;
  /** A sandbox worker took the run: its wall clock starts here, after any wait in the pool's queue. */
  readonly onStart?: () => void;
  /** Runs an `ask` statement (seed 004): the controller's child loop. Without it `ask` fails with `SCRIPT_ASK_UNAVAILABLE`. */
  readonly ask?: (request: AskCall) => Promise<JsonValue>;
}

/** What an `ask` statement hands the controller. */
export interface AskCall {
  readonly agent: string;
  readonly prompt: string;
  /** The evaluated `with` options, or null. */
  readonly options: JsonValue;
  readonly signal: AbortSignal;
}

/** The interpreter port of the loop. */
export interface LoopInterpreter {
  prepare(source: string, options?: PrepareOptions): Promise<PrepareResult>;
  execute(prepared: PreparedProgram, options?: ExecuteOptions): Promise<RunResult>;
}

/** The kind of a script error code (until the interpreter reports kinds itself, derived from the code). */
export type ErrorKindOf = (error: ScriptErrorData) => ScriptErrorKind;
