/** The NeuroScript evaluator: AST compiled to closures, run against a host bridge. Runs in plain Node and inside the isolate. */
export { evaluateProgram, type EvaluationInput, type EvaluationOutput } from './evaluate-program.ts';
export type { HostBridge, HostEvent, HostFailure, HostReply, HostRequest } from './host-bridge.ts';
