/**
 * Public types of the host-side run API (`createInterpreter`). Everything a
 * run returns is plain JSON-copyable data.
 */
import type { Program } from '../ast/index.ts';
import type { Diagnostic } from '../parse/index.ts';
import type { JsonValue, RunLimits, ScriptErrorData } from '../runtime/index.ts';
import type { SandboxRunRequest, SandboxResult } from '../sandbox/sandbox-types.ts';
import type { SecretFingerprint } from '../sandbox/secret-fingerprints.ts';
import type { ToolCatalog } from '../tool-signature.ts';

/** How a run reaches tools: `@askloop/tools`' `ToolHost` fits this shape. */
export interface ToolBridge {
  /** The host's catalogue; `run` checks against it when `catalog` is not given (`prepare` takes it as an option). */
  readonly catalog?: ToolCatalog;
  /**
   * Runs a tool in the host with the script's positional arguments (copied JSON).
   * May be async. Reject with an error carrying a string `code` (`TOOL_…`, `POLICY_…`) to fail the call.
   * The run passes `options` on every call (optional for a bridge called by other code); stop slow work
   * when `options.signal` aborts: the run has ended and will not read the result.
   */
  call(name: string, args: readonly JsonValue[], options?: ToolBridgeCallOptions): unknown;
  /**
   * Books a successful call of `name` that the sandbox worker answered itself
   * (`ExecuteOptions.localTools`), in its place among the calls made through
   * `call`. A run uses `localTools` only with a bridge that has this
   * (`@askloop/tools`' `ToolHost` does).
   */
  recordLocalCall?(name: string): void;
}

/**
 * Tools the sandbox worker answers itself, without a round trip to the host
 * (`ExecuteOptions.localTools`): `@askloop/tools`' `workerLocalTools` and
 * `localToolsModule` give both.
 */
export interface LocalTools {
  /** URL of the ES module the worker imports; it exports `callLocalTool(name, args, limits)` (see `SandboxLocalTools`). */
  readonly module: string;
  /** Canonical names of the tools the worker may answer; only those the check approved for the run are. */
  readonly names: readonly string[];
  /**
   * The bridge's own bounds on a result, when they may be tighter than the
   * run's `stringLength` and `collectionSize` (a `ToolHost`'s
   * `maxResultLength` and `maxResultItems`): the worker answers only a result
   * within both, and leaves any other to the bridge, which refuses it.
   */
  readonly limits?: { readonly stringLength?: number; readonly collectionSize?: number };
  /**
   * Fingerprints of the secrets the bridge hides from results
   * (`secretFingerprints` of them): the worker leaves a result that holds one
   * to the bridge, which hides it. Give them whenever the bridge redacts.
   */
  readonly secrets?: readonly SecretFingerprint[];
}

/** What a run tells its tool bridge about one call. */
export interface ToolBridgeCallOptions {
  /**
   * What is left of the run's `wallMs` at this call, as the run counts its
   * time (time its calls waited on a busy host is not counted). A host that
   * bounds calls by a deadline taken when the run started should let a call
   * run this long when that is later: a stall of the host made that deadline
   * early. (`@askloop/tools`' `ToolHost` does.) Absent when the runner does not say.
   */
  readonly timeLeftMs?: number;
  /**
   * Aborts when the run ends while this call is open — its wall clock ran
   * out, the host aborted it (`ExecuteOptions.signal`), a limit or an error
   * stopped it — with the sandbox's reason (an `AbortError`). A call that
   * settled first never sees it abort, even once its run has ended: a bridge
   * may tie clean-up to it. (`@askloop/tools`' `ToolHost` cancels the call,
   * `TOOL_CANCELLED`, and its handler's I/O.) Always given by a run; absent
   * when the caller is not a run.
   */
  readonly signal?: AbortSignal;
}

/** What an `ask` statement hands the orchestrator (seed 004 `RunAskLoop`). */
export interface AskRequest {
  /** The agent (model) name, as text. */
  readonly agent: string;
  /** The prompt, as text. */
  readonly prompt: string;
  /** The evaluated `with` options, or null. */
  readonly options: JsonValue;
  /** Aborted when the calling run ends. */
  readonly signal: AbortSignal;
  /** The calling interpreter, so the orchestrator can run the agent's code (seed 004 §3). */
  readonly interpreter: Interpreter;
}

/** The host's `ask` hook (seed 004): runs a whole ask loop and returns its result (stored with `into`). */
export interface AskOrchestrator {
  runAskLoop(request: AskRequest): Promise<JsonValue> | JsonValue;
}

/** The part of a sandbox pool the interpreter uses (`createSandboxPool` from src/sandbox). */
export interface SandboxRunner {
  run(request: SandboxRunRequest): Promise<SandboxResult>;
}

/** Options of `createInterpreter`: what belongs to the agent, not to one run. */
export interface InterpreterOptions {
  /**
   * The sandbox pool to run in (`createSandboxPool`); the host owns and closes
   * it. Default, for convenience only: one shared pool created on first use,
   * which the host must close with `closeDefaultPool()`.
   */
  readonly pool?: SandboxRunner;
  /** The `ask` hook; without one `ask` fails with `SCRIPT_ASK_UNAVAILABLE`. */
  readonly orchestrator?: AskOrchestrator;
  /** Answers `promptuser`; without one it fails with `SCRIPT_PROMPT_UNAVAILABLE`. */
  readonly promptUser?: (prompt: string, signal: AbortSignal) => Promise<string> | string;
  /** Default quotas of every run (see `DEFAULT_LIMITS`). */
  readonly limits?: Partial<RunLimits>;
}

/** Options of `prepare`: what the static check needs. */
export interface PrepareOptions {
  /** `agent` (default): one ACTIONS command block, checked strictly. `host`: trusted library and command scripts. */
  readonly mode?: 'agent' | 'host';
  /**
   * The host's tool catalogue and its one policy: every tool reference must be
   * in it and allowed by its `check`. Without it tool names are not checked.
   */
  readonly catalog?: ToolCatalog;
  /** Library scripts (sources or parsed programs) whose functions the program may call. */
  readonly libraries?: readonly (string | Program)[];
  /** File name for diagnostics when the program is given as source. */
  readonly fileName?: string;
  /** Allow `ask` in agent mode (default: when the interpreter has an orchestrator). */
  readonly allowAsk?: boolean;
  /**
   * The names `execute` will bind (`userdata` and the keys of the `globals`
   * it is given). When given, a map key written as a bare name that neither
   * the program nor these bind is refused (`SCRIPT_MAP_KEY_UNSET`: `{name:
   * "Ada"}` meant `{"name": "Ada"}`); without it that check is skipped. `run`
   * gives them itself, from its own `globals` and `userdata`.
   */
  readonly globalNames?: readonly string[];
}

/**
 * A program that passed the static checks, ready to `execute`: plain JSON
 * data, so a host may persist it (e.g. while a person approves it) and
 * execute it later. `prepare` returns it deep-frozen; `execute` validates the
 * shape of any other copy again, nothing more.
 */
export interface PreparedProgram {
  readonly mode: 'agent' | 'host';
  readonly program: Program;
  readonly libraries: readonly Program[];
  /** Canonical names of every tool the checked programs call, sorted: the only tools the run may call. */
  readonly approvedTools: readonly string[];
}

/** The outcome of `prepare`: a prepared program and its warnings, or the diagnostics that stop it. */
export type PrepareResult =
  | { readonly ok: true; readonly prepared: PreparedProgram; /** Warnings only. */ readonly diagnostics: readonly Diagnostic[] }
  | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** One tool call of a run, reported when it ends (`ExecuteOptions.onToolCall`). */
export interface ToolCallReport {
  /** The canonical tool name. */
  readonly name: string;
  /** The arguments as the script passed them (copied JSON). */
  readonly args: readonly JsonValue[];
  readonly result?: JsonValue;
  /** The error the script saw, when the call failed. */
  readonly error?: ScriptErrorData;
  readonly durationMs: number;
}

/** Options of `execute`: what one run (one turn) brings. */
export interface ExecuteOptions {
  /** The tools of this run; the host authorizes each call (e.g. a per-turn `ToolHost`). */
  readonly tools?: ToolBridge;
  /**
   * Pure tools the sandbox worker answers itself, each booked on `tools`
   * (`recordLocalCall`) and reported to `onToolCall` in its place. Their
   * module must compute a result from the arguments alone: a call it
   * declines, or whose result fails a check, goes to `tools` as any other.
   * Ignored when `tools` cannot book such calls.
   */
  readonly localTools?: LocalTools;
  /** Quotas for this run, over the interpreter's. */
  readonly limits?: Partial<RunLimits>;
  /** Aborting ends the run with `SCRIPT_ABORTED`. */
  readonly signal?: AbortSignal;
  /** Exposed to the script as the read-only global `userdata`. */
  readonly userdata?: JsonValue;
  /** More read-only globals. */
  readonly globals?: Readonly<Record<string, JsonValue>>;
  /** Called for each emit as it happens; what it throws is ignored (the run and its result go on). */
  onEmit?(text: string): void;
  /** Called for each whisper as it happens; what it throws is ignored. */
  onWhisper?(target: string, text: string): void;
  /** Called after each tool call (not `ask`/`promptuser`), success or failure. */
  onToolCall?(call: ToolCallReport): void;
  /**
   * Called when a sandbox worker takes the run, after any wait in the pool's
   * queue: the run's wall clock (`limits.wallMs`) starts here, not when
   * `execute` is called. A host bounding its tools by the run's time (a tool
   * deadline) starts that clock here too. May be called again if the worker
   * died before it could take the run and the run moved to another.
   */
  onStart?(): void;
}

/** Options of `run`: `prepare`'s and `execute`'s. */
export type RunOptions = PrepareOptions & ExecuteOptions;

/** What a run used. */
export interface RunUsage {
  /** Evaluation steps spent. */
  readonly fuel: number;
  readonly toolCalls: number;
  /** From the run's start on a worker (see `ExecuteOptions.onStart`) to its result; a wait in the pool's queue is not included. */
  readonly wallMs: number;
}

/** The outcome of one run. */
export interface RunResult {
  readonly ok: boolean;
  /** Emitted texts, in order. */
  readonly emits: readonly string[];
  /**
   * The source line of the `emit` statement that wrote each of `emits`, in
   * its file (the program's or a library's; 0 where unknown): which statement
   * wrote a text, so a host can tell text the program wrote from data it
   * only passed on (the controller's `<<<LOOP:DONE>>>` check). This
   * package's runs always say; optional for other runners.
   */
  readonly emitLines?: readonly number[];
  /** Whispered text per target: each whisper's text, joined with `\n`. */
  readonly whispers: Readonly<Record<string, string>>;
  /** OUTPUT: every emit followed by `\n`. */
  readonly output: string;
  /** SCRATCHPAD: every whisper's text followed by `\n`, in order, whatever its target. */
  readonly scratchpad: string;
  /** The error that stopped the run (the first static-check error when the check failed), or null. */
  readonly error: ScriptErrorData | null;
  /** Static-check diagnostics: when any has severity `error` nothing ran; warnings alone do not stop a run. */
  readonly diagnostics: readonly Diagnostic[];
  readonly usage: RunUsage;
}

/**
 * A configured interpreter. None of its methods rejects for script problems;
 * each rejects with `SANDBOX_INVALID_REQUEST` for an option it does not have
 * (naming the one most likely meant, or the method it belongs to) or of the
 * wrong kind.
 */
export interface Interpreter {
  /** Parses (or validates) and checks a program and its libraries; nothing runs. */
  prepare(source: string | Program, options?: PrepareOptions): Promise<PrepareResult>;
  /** Runs a prepared program in a fresh sandbox context; validates its shape (unless `prepare` returned it here, frozen), re-checks nothing else. */
  execute(prepared: PreparedProgram, options?: ExecuteOptions): Promise<RunResult>;
  /** `prepare`, then (when it passes) `execute`. */
  run(source: string | Program, options?: RunOptions): Promise<RunResult>;
}
