/** The NeuroScript evaluator: the host compiles the AST to JavaScript (`compileEvaluation`), the isolate runs it (`runCompiled`) against a host bridge. */
export { compileEvaluation } from './compile-evaluation.ts';
export { evaluateProgram } from './evaluate-program.ts';
export type { CompiledEvaluationInput, EvaluationInput, EvaluationOutput } from './evaluation-types.ts';
export type { HostBridge, HostEvent, HostFailure, HostReply, HostRequest } from './host-bridge.ts';
export { runCompiled } from './run-compiled.ts';
