/**
 * The loop's interpreter port on `@askloop/interpreter`: `prepare` parses
 * (bounded) and checks the whole program against the turn's catalogue before
 * anything runs; `execute` runs a prepared program in a fresh sandbox context
 * of `pool`. An interpreter is made per call only to attach the turn's `ask`
 * hook (seed 004): creating one costs nothing, the pool is shared.
 */
import { createInterpreter, type SandboxRunner } from '@askloop/interpreter';
import type { ExecuteOptions, LoopInterpreter, PreparedProgram, PrepareOptions } from './loop-interpreter.ts';

/** Creates the default interpreter on `pool` (the interpreter's shared default pool when absent). */
export function createDefaultInterpreter(pool?: SandboxRunner): LoopInterpreter {
  const base = createInterpreter(pool === undefined ? {} : { pool });
  return {
    prepare: (source: string, options: PrepareOptions = {}) => base.prepare(source, options),
    execute(prepared: PreparedProgram, { ask, ...options }: ExecuteOptions = {}) {
      if (ask === undefined) return base.execute(prepared, options);
      const orchestrator = { runAskLoop: ({ agent, prompt, options: askOptions, signal }: { agent: string; prompt: string; options: unknown; signal: AbortSignal }) => ask({ agent, prompt, options: askOptions as never, signal }) };
      return createInterpreter({ ...(pool === undefined ? {} : { pool }), orchestrator }).execute(prepared, options);
    },
  };
}
