/**
 * Runs a checked program: compiles the library functions and the program's
 * own, then runs its command blocks in order in one shared scope (reference
 * §1.8 "Commands"). Never throws: script errors come back as data, and any
 * other exception is reported as `SCRIPT_INTERNAL`.
 */
import type { Program } from '../ast/index.ts';
import { fromJson, type JsonValue, resolveLimits, type RunLimits, ScriptError, type ScriptErrorData, type Value } from '../runtime/index.ts';
import { compileProgram } from './codegen/generate-program.ts';
import type { HostBridge } from './host-bridge.ts';
import { Machine } from './machine.ts';

/** Everything one evaluation needs, as JSON-copyable data. */
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

/** What one evaluation produced, as JSON-copyable data. */
export interface EvaluationOutput {
  readonly ok: boolean;
  readonly emits: readonly string[];
  /** Whispers in order. */
  readonly whispers: readonly { readonly target: string; readonly text: string }[];
  readonly error: ScriptErrorData | null;
  /** Fuel spent. */
  readonly fuel: number;
  readonly toolCalls: number;
}

/** The predefined global the reference gives every interpreter (§1.8 `whisper`). */
const DEFAULT_GLOBALS: Readonly<Record<string, JsonValue>> = { self: 'default_self_buffer' };

function toErrorData(error: unknown): ScriptErrorData {
  if (error instanceof ScriptError) {
    if (error.frames.length === 0) error.frames.push({ name: 'command', line: error.line, column: error.column });
    return error.toData();
  }
  if (error instanceof RangeError) {
    return new ScriptError('SCRIPT_CALL_DEPTH', 'The interpreter ran out of stack; calls or expressions are nested too deeply (limit: callDepth).').toData();
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ScriptError('SCRIPT_INTERNAL', `Interpreter error (please report): ${message}`).toData();
}

/** Evaluates a program against a host bridge. */
export function evaluateProgram(input: EvaluationInput, host: HostBridge): EvaluationOutput {
  const limits = resolveLimits(input.limits);
  const globals = new Map<string, Value>();
  let machine: Machine | null = null;
  try {
    // Globals come from the host, so the size limits on values the script builds do not apply to them.
    const unlimited: RunLimits = { ...limits, stringLength: Infinity, collectionSize: Infinity };
    for (const [name, value] of Object.entries({ ...DEFAULT_GLOBALS, ...(input.globals ?? {}) })) globals.set(name, fromJson(value, unlimited, null));
    machine = new Machine(limits, host, globals, input.stream === true, input.startedAt ?? host.now());
    compileProgram(input.program, input.libraries ?? [], machine).run();
    return finish(machine, null);
  } catch (error) {
    return finish(machine, toErrorData(error));
  }
}

function finish(machine: Machine | null, error: ScriptErrorData | null): EvaluationOutput {
  return {
    ok: error === null,
    emits: machine?.emits ?? [],
    whispers: machine?.whispers ?? [],
    error,
    fuel: machine === null ? 0 : machine.spent(),
    toolCalls: machine?.toolCalls ?? 0,
  };
}
