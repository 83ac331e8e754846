/**
 * Public types of the host-side run API (`createInterpreter`). Everything a
 * run returns is plain JSON-copyable data.
 */
import type { Program } from '../ast/index.ts';
import type { ToolPolicy } from '../check/index.ts';
import type { Diagnostic } from '../parse/index.ts';
import type { JsonValue, RunLimits, ScriptErrorData } from '../runtime/index.ts';
import type { SandboxRunRequest, SandboxResult } from '../sandbox/sandbox-types.ts';
import type { ToolCatalog } from '../tool-signature.ts';

/** How the interpreter reaches tools: `@askloop/tools`' `ToolHost` fits this shape. */
export interface ToolBridge {
  /** Tool signatures for the static check; without it tool names are not checked before the run. */
  readonly catalog?: ToolCatalog;
  /**
   * Runs a tool in the host with the script's positional arguments (copied JSON).
   * May be async. Reject with an error carrying a string `code` (`TOOL_…`, `POLICY_…`) to fail the call.
   */
  call(name: string, args: readonly JsonValue[]): unknown;
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

/** Options of `createInterpreter`. */
export interface InterpreterOptions {
  /** The sandbox pool to run in; default: one shared pool, created on first use (`closeDefaultPool`). */
  readonly pool?: SandboxRunner;
  readonly tools?: ToolBridge;
  /** Allow/deny globs checked before the run (and by the tool host at run time). */
  readonly policy?: ToolPolicy;
  /** The `ask` hook; without one `ask` fails with `SCRIPT_ASK_UNAVAILABLE`. */
  readonly orchestrator?: AskOrchestrator;
  /** Answers `promptuser`; without one it fails with `SCRIPT_PROMPT_UNAVAILABLE`. */
  readonly promptUser?: (prompt: string, signal: AbortSignal) => Promise<string> | string;
  /** Default quotas of every run (see `DEFAULT_LIMITS`). */
  readonly limits?: Partial<RunLimits>;
}

/** Options of one run. */
export interface RunOptions {
  /** `agent` (default): one ACTIONS command block, checked strictly. `host`: trusted library and command scripts. */
  readonly mode?: 'agent' | 'host';
  /** Library scripts (sources or parsed programs) whose functions the program may call. */
  readonly libraries?: readonly (string | Program)[];
  /** File name for diagnostics when the program is given as source. */
  readonly fileName?: string;
  /** Exposed to the script as the read-only global `userdata`. */
  readonly userdata?: JsonValue;
  /** More read-only globals. */
  readonly globals?: Readonly<Record<string, JsonValue>>;
  /** Quotas for this run, over the interpreter's. */
  readonly limits?: Partial<RunLimits>;
  /** Called for each emit as it happens. */
  readonly onEmit?: (text: string) => void;
  /** Called for each whisper as it happens. */
  readonly onWhisper?: (target: string, text: string) => void;
  /** Aborting ends the run with `SCRIPT_ABORTED`. */
  readonly signal?: AbortSignal;
}

/** What a run used. */
export interface RunUsage {
  /** Evaluation steps spent. */
  readonly fuel: number;
  readonly toolCalls: number;
  readonly wallMs: number;
}

/** The outcome of one run. */
export interface RunResult {
  readonly ok: boolean;
  /** Emitted texts, in order. */
  readonly emits: readonly string[];
  /** Whispered text per target: each whisper's text, joined with `\n`. */
  readonly whispers: Readonly<Record<string, string>>;
  /** OUTPUT: every emit followed by `\n`. */
  readonly output: string;
  /** SCRATCHPAD: every whisper's text followed by `\n`, in order, whatever its target. */
  readonly scratchpad: string;
  /** The error that stopped the run (a static-check error when `diagnostics` is non-empty), or null. */
  readonly error: ScriptErrorData | null;
  /** Static-check diagnostics; when non-empty nothing ran. */
  readonly diagnostics: readonly Diagnostic[];
  readonly usage: RunUsage;
}

/** A configured interpreter. */
export interface Interpreter {
  /** Parses, checks, and (when clean) runs a program in a fresh sandbox context. Never rejects for script problems. */
  run(program: string | Program, options?: RunOptions): Promise<RunResult>;
}
