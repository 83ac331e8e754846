/** The sandbox: supervised worker processes hosting isolated-vm isolates, the host↔isolate bridge and its quotas. */
export { createSandboxPool } from './sandbox-pool.ts';
export type { SandboxPool, SandboxPoolOptions, SandboxPoolStats } from './sandbox-pool-types.ts';
export { createRuntimeBundle } from './runtime-bundle.ts';
export type { RuntimeBundle } from './runtime-bundle.ts';
export { DEFAULT_SANDBOX_LIMITS, resolveSandboxLimits } from './sandbox-limits.ts';
export type { SandboxLimits } from './sandbox-limits.ts';
export { SANDBOX_ERROR_CODES, SandboxError } from './sandbox-error.ts';
export type { SandboxCheckpoint, SandboxErrorCode, SandboxErrorData, SandboxLimitBreach, SandboxLimitName } from './sandbox-error.ts';
export type {
  JsonValue,
  SandboxEventHandler,
  SandboxLocalToolCall,
  SandboxLocalTools,
  SandboxResult,
  SandboxRunRequest,
  SandboxUsage,
  ToolCallContext,
  ToolCallHandler,
  ToolOutcome,
} from './sandbox-types.ts';
export { secretFingerprints, type SecretFingerprint } from './secret-fingerprints.ts';
export { defaultWorkerEntry } from './worker-entry.ts';
export type { WorkerEntry } from './worker-entry.ts';
