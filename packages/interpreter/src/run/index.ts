/** The host-side run API: prepare (parse, check), then execute in the sandbox. */
export { createInterpreter } from './create-interpreter.ts';
export { closeDefaultPool, defaultPool } from './default-pool.ts';
export { EVALUATOR_ENTRY, evaluatorBundle } from './evaluator-bundle.ts';
export { scriptCodeForToolCode } from './map-host-failure.ts';
export { toolsAtRunStart, type ToolsAtRunStart } from './tools-at-run-start.ts';
export type {
  AskOrchestrator,
  AskRequest,
  ExecuteOptions,
  LocalTools,
  Interpreter,
  InterpreterOptions,
  PreparedProgram,
  PrepareOptions,
  PrepareResult,
  RunOptions,
  RunResult,
  RunUsage,
  SandboxRunner,
  ToolBridge,
  ToolBridgeCallOptions,
  ToolCallReport,
} from './run-types.ts';
