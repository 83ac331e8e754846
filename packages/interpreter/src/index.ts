/**
 * @askloop/interpreter: NeuroScript parsed into a plain AST, proved before it
 * runs (structure, agent-mode rules, every tool against the host's catalogue
 * and its one policy), then evaluated inside an isolated-vm sandbox with
 * quotas. Every export is listed here on purpose; internals (the in-process
 * evaluator, the NeuroScript runtime's bundle) are not public.
 */
// First, before anything that an old Node cannot load: one clear error on a Node that is too old.
import './node-version-check.ts';

// Host API: prepare, then execute (src/run).
export { closeDefaultPool, createInterpreter, toolsAtRunStart, type ToolsAtRunStart } from './run/index.ts';
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
} from './run/index.ts';

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
  MAX_SOURCE_LENGTH,
  MAX_SYNTAX_ERRORS,
  DEFAULT_BOUNDED_MAX_LENGTH,
  DEFAULT_IN_HOST_MAX_LENGTH,
  DEFAULT_PARSE_MEMORY_MB,
  DEFAULT_PARSE_TIMEOUT_MS,
} from './parse/index.ts';
export type { ParseOptions, ParseResult, ParseBoundedOptions, ParseSupervisor, ParseSupervisorOptions, ParseSupervisorStats, Diagnostic, DiagnosticCode } from './parse/index.ts';
export { check, parseAndCheck, findDuplicateFunctions, findFunctionCallProblems, findToolCalls, MAX_TOOL_SUGGESTIONS, staticArguments, staticValue } from './check/index.ts';
export type { CheckContext, FunctionCallContext, ParseAndCheckResult } from './check/index.ts';

// The tool interface the checker and the run use (implemented by @askloop/tools).
export type { StaticArgument, ToolArgumentSignature, ToolCatalog, ToolDenial, ToolSignature, ToolValueType } from './tool-signature.ts';

// Errors: one table of every code, with its kind (src/runtime/error-codes.ts).
export { errorKind, SCRIPT_ERROR_CODES } from './runtime/index.ts';
export type { ErrorCodeInfo, ErrorFrame, ErrorKind, NeededGrant, ScriptErrorCode, ScriptErrorData } from './runtime/index.ts';

// Values and limits.
export { DEFAULT_LIMITS, MAX_ASKS_AND_PROMPTS, resolveLimits, formatNumber, renderValue, toText } from './runtime/index.ts';
export type { JsonValue, RunLimits } from './runtime/index.ts';

// Sandbox: supervised worker processes hosting isolated-vm isolates, the tool bridge, quotas (src/sandbox).
export { createRuntimeBundle, createSandboxPool, DEFAULT_SANDBOX_LIMITS, resolveSandboxLimits, SANDBOX_ERROR_CODES, SandboxError, secretFingerprints } from './sandbox/index.ts';
export type {
  RuntimeBundle,
  SandboxCheckpoint,
  SandboxErrorCode,
  SandboxErrorData,
  SandboxLimitBreach,
  SandboxLimitName,
  SandboxLimits,
  SandboxLocalToolCall,
  SandboxLocalTools,
  SandboxPool,
  SandboxPoolOptions,
  SandboxPoolStats,
  SandboxResult,
  SandboxRunRequest,
  SandboxUsage,
  SecretFingerprint,
  ToolCallContext,
  ToolCallHandler,
  ToolOutcome,
} from './sandbox/index.ts';
