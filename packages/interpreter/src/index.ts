/**
 * @askloop/interpreter. Not built yet: see README.md
 * for what will live here. The package exists so the workspace, its build and
 * the dependency-direction check already cover it.
 */
// First, before anything that an old Node cannot load: one clear error on a Node that is too old.
import './node-version-check.ts';
export const PACKAGE_STATUS = 'skeleton' as const;

// Front end: AST types and traversal (src/ast).
export * from './ast/index.ts';

// Front end: parser and static checks (src/parse, src/check).
export {
  parse,
  parseBounded,
  closeParseWorker,
  createParseSupervisor,
  compareDiagnostics,
  DIAGNOSTIC_CODES,
  NUMERIC_CODES,
  MAX_SOURCE_LENGTH,
  DEFAULT_BOUNDED_MAX_LENGTH,
  DEFAULT_IN_HOST_MAX_LENGTH,
  DEFAULT_PARSE_MEMORY_MB,
  DEFAULT_PARSE_TIMEOUT_MS,
} from './parse/index.ts';
export type { ParseOptions, ParseResult, ParseBoundedOptions, ParseSupervisor, ParseSupervisorOptions, ParseSupervisorStats, Diagnostic, DiagnosticCode } from './parse/index.ts';
export { check, parseAndCheck, canonicalToolName, matchToolGlob, findToolCalls, policyDenial, nearestName } from './check/index.ts';
export type { CheckContext, ToolPolicy, ParseAndCheckResult } from './check/index.ts';

// The tool interface the checker uses (implemented by @askloop/tools).
export type { ToolArgumentSignature, ToolCatalog, ToolDenial, ToolSignature, ToolValueType } from './tool-signature.ts';

// Sandbox: supervised worker processes hosting isolated-vm isolates, the tool bridge, quotas (src/sandbox).
export { createSandboxPool, createRuntimeBundle, DEFAULT_SANDBOX_LIMITS, resolveSandboxLimits, SANDBOX_ERROR_CODES, SandboxError, defaultWorkerEntry } from './sandbox/index.ts';
export type {
  RuntimeBundle,
  SandboxErrorCode,
  SandboxErrorData,
  SandboxEventHandler,
  SandboxLimitBreach,
  SandboxLimitName,
  SandboxLimits,
  SandboxPool,
  SandboxPoolOptions,
  SandboxPoolStats,
  SandboxResult,
  SandboxRunRequest,
  SandboxUsage,
  ToolCallContext,
  ToolCallHandler,
  ToolOutcome,
  WorkerEntry,
} from './sandbox/index.ts';

// Evaluation: value semantics (src/runtime), the closure compiler (src/evaluate), the host run API (src/run).
export { DEFAULT_LIMITS, resolveLimits, RUNTIME_ERROR_CODES, formatNumber, renderValue, toText } from './runtime/index.ts';
export type { ErrorFrame, JsonValue, RunLimits, RuntimeErrorCode, ScriptErrorData } from './runtime/index.ts';
export { evaluateProgram } from './evaluate/index.ts';
export type { EvaluationInput, EvaluationOutput, HostBridge, HostEvent, HostFailure, HostReply, HostRequest } from './evaluate/index.ts';
export { closeDefaultPool, createInterpreter, EVALUATOR_ENTRY, evaluatorBundle } from './run/index.ts';
export type { AskOrchestrator, AskRequest, Interpreter, InterpreterOptions, RunOptions, RunResult, RunUsage, SandboxRunner, ToolBridge } from './run/index.ts';
