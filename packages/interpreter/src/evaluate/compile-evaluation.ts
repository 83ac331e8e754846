/**
 * The host's half of a run: compiles the checked program to JavaScript
 * (`generateProgram`) with the run's limits and global names, so only the
 * generated code and its tables — no AST — cross into the sandbox. A program
 * that cannot compile travels as its error, which the isolate reports exactly
 * as it did when it compiled the program itself.
 */
import { resolveLimits } from '../runtime/index.ts';
import { generateProgram } from './codegen/generate-program.ts';
import { type CompiledEvaluationInput, DEFAULT_GLOBALS, type EvaluationInput } from './evaluation-types.ts';
import { toErrorData } from './to-error-data.ts';

/** Compiles an evaluation's program; never throws. */
export function compileEvaluation(input: EvaluationInput): CompiledEvaluationInput {
  const limits = resolveLimits(input.limits);
  const globals = new Set(Object.keys({ ...DEFAULT_GLOBALS, ...(input.globals ?? {}) }));
  let compiled: CompiledEvaluationInput['compiled'];
  try {
    compiled = generateProgram(input.program, input.libraries ?? [], { limits, globals });
  } catch (error) {
    compiled = { error: toErrorData(error) };
  }
  return {
    compiled,
    ...(input.limits === undefined ? {} : { limits: input.limits }),
    ...(input.globals === undefined ? {} : { globals: input.globals }),
    ...(input.stream === undefined ? {} : { stream: input.stream }),
    ...(input.startedAt === undefined ? {} : { startedAt: input.startedAt }),
  };
}
