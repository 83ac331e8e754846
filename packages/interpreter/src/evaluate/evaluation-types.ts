/** The evaluator's inputs and output, all JSON-copyable data. */
import type { Program } from '../ast/index.ts';
import type { JsonValue, RunLimits, ScriptErrorData } from '../runtime/index.ts';
import type { CompiledProgram } from './codegen/compiled-program.ts';

/** Everything one in-process evaluation needs: the AST, compiled as part of the run (`evaluateProgram`). */
export interface EvaluationInput {
  /** The program to run; its command blocks run in order. */
  readonly program: Program;
  /** Library programs whose functions the program may call. */
  readonly libraries?: readonly Program[];
  readonly limits?: Partial<RunLimits>;
  /** Read-only global variables (e.g. `self`, `userdata`). */
  readonly globals?: Readonly<Record<string, JsonValue>>;
  /** Send emits and whispers to `host.event` as they happen. */
  readonly stream?: boolean;
  /** When the run started (ms since the epoch), for the wall-clock quota; defaults to now. */
  readonly startedAt?: number;
}

/**
 * What crosses into the sandbox for one run (`compileEvaluation` makes it in
 * the host): the program already compiled — or the error compiling it raised,
 * reported by the isolate as the run's error — and no AST.
 */
export interface CompiledEvaluationInput {
  readonly compiled: CompiledProgram | { readonly error: ScriptErrorData };
  /** The limits the code was compiled with. */
  readonly limits?: Partial<RunLimits>;
  /** Read-only global variables; their names are the ones the code was compiled with. */
  readonly globals?: Readonly<Record<string, JsonValue>>;
  readonly stream?: boolean;
  readonly startedAt?: number;
}

/** What one evaluation produced, as JSON-copyable data. */
export interface EvaluationOutput {
  readonly ok: boolean;
  readonly emits: readonly string[];
  /** The source line of the `emit` statement that wrote each emit (0 where unknown). */
  readonly emitLines: readonly number[];
  /** Whispers in order. */
  readonly whispers: readonly { readonly target: string; readonly text: string }[];
  readonly error: ScriptErrorData | null;
  /** Fuel spent. */
  readonly fuel: number;
  readonly toolCalls: number;
}

/** The predefined global the reference gives every interpreter (§1.8 `whisper`). */
export const DEFAULT_GLOBALS: Readonly<Record<string, JsonValue>> = { self: 'default_self_buffer' };
