/**
 * The isolate's half of a run: sets up the machine (limits, globals, clock),
 * instantiates the compiled program and runs its command blocks in order in
 * one shared scope (reference §1.8 "Commands"). Never throws: script errors
 * come back as data, and any other exception is reported as `SCRIPT_INTERNAL`.
 */
import { fromJson, resolveLimits, type RunLimits, type ScriptErrorData, type Value } from '../runtime/index.ts';
import { instantiateProgram } from './codegen/instantiate-program.ts';
import { type CompiledEvaluationInput, DEFAULT_GLOBALS, type EvaluationOutput } from './evaluation-types.ts';
import type { HostBridge } from './host-bridge.ts';
import { Machine } from './machine.ts';
import { toErrorData } from './to-error-data.ts';

/** Runs a compiled evaluation against a host bridge. */
export function runCompiled(input: CompiledEvaluationInput, host: HostBridge): EvaluationOutput {
  const limits = resolveLimits(input.limits);
  const globals = new Map<string, Value>();
  let machine: Machine | null = null;
  try {
    // Globals come from the host, so the size limits on values the script builds do not apply to them.
    const unlimited: RunLimits = { ...limits, stringLength: Infinity, collectionSize: Infinity };
    for (const [name, value] of Object.entries({ ...DEFAULT_GLOBALS, ...(input.globals ?? {}) })) globals.set(name, fromJson(value, unlimited, null));
    machine = new Machine(limits, host, globals, input.stream === true, input.startedAt ?? host.now());
    // A compile error is reported where compiling used to happen: after the globals, with the machine made.
    if ('error' in input.compiled) return finish(machine, input.compiled.error);
    instantiateProgram(input.compiled, machine)();
    return finish(machine, null);
  } catch (error) {
    return finish(machine, toErrorData(error));
  }
}

function finish(machine: Machine | null, error: ScriptErrorData | null): EvaluationOutput {
  return {
    ok: error === null,
    emits: machine?.emits ?? [],
    emitLines: machine?.emitLines ?? [],
    whispers: machine?.whispers ?? [],
    error,
    fuel: machine === null ? 0 : machine.spent(),
    toolCalls: machine?.toolCalls ?? 0,
  };
}
