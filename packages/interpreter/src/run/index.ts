/** The host-side run API: parse, check, then evaluate in the sandbox. */
export { createInterpreter } from './create-interpreter.ts';
export { closeDefaultPool, defaultPool } from './default-pool.ts';
export { EVALUATOR_ENTRY, evaluatorBundle } from './evaluator-bundle.ts';
export { scriptCodeForToolCode } from './map-host-failure.ts';
export type {
  AskOrchestrator,
  AskRequest,
  Interpreter,
  InterpreterOptions,
  RunOptions,
  RunResult,
  RunUsage,
  SandboxRunner,
  ToolBridge,
} from './run-types.ts';
