/**
 * Evaluates a checked program in this realm: compiles it (`compileEvaluation`,
 * the host's half of a sandbox run) and runs the result (`runCompiled`, the
 * isolate's half), so in-process tests take exactly the sandbox's two steps.
 * Never throws.
 */
import { compileEvaluation } from './compile-evaluation.ts';
import type { EvaluationInput, EvaluationOutput } from './evaluation-types.ts';
import type { HostBridge } from './host-bridge.ts';
import { runCompiled } from './run-compiled.ts';

/** Evaluates a program against a host bridge. */
export function evaluateProgram(input: EvaluationInput, host: HostBridge): EvaluationOutput {
  return runCompiled(compileEvaluation(input), host);
}
