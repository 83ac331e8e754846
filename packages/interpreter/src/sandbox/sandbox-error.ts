/**
 * The sandbox's one error type. A run that fails because of what the script
 * did (a quota breach, a crash of its worker, a runtime exception) resolves
 * with `{ ok: false, error }` where `error` is a `SandboxError`; the pool only
 * rejects — with a `SandboxError` too — for host mistakes (a closed pool, an
 * invalid request, a worker that cannot start).
 *
 * Codes are stable strings; every one is listed in the package README under
 * "Sandbox" with how to fix it.
 */

/** Every sandbox error code, sorted. */
export const SANDBOX_ERROR_CODES = [
  'SANDBOX_ABORTED',
  'SANDBOX_ENTRY_NOT_FOUND',
  'SANDBOX_INTERNAL',
  'SANDBOX_INVALID_REQUEST',
  'SANDBOX_MEMORY',
  'SANDBOX_OUTPUT_LIMIT',
  'SANDBOX_POOL_CLOSED',
  'SANDBOX_QUEUE_TIMEOUT',
  'SANDBOX_RESULT_NOT_JSON',
  'SANDBOX_RUNTIME_ERROR',
  'SANDBOX_STACK_OVERFLOW',
  'SANDBOX_TIMEOUT',
  'SANDBOX_TOOL_CALL_LIMIT',
  'SANDBOX_WORKER_DIED',
  'SANDBOX_WORKER_START_FAILED',
] as const;

/** A stable sandbox error code. */
export type SandboxErrorCode = (typeof SANDBOX_ERROR_CODES)[number];

/** The name of a configurable quota; see `SandboxLimits`. */
export type SandboxLimitName = 'wallMs' | 'memoryMb' | 'maxToolCalls' | 'maxOutputBytes';

/** Which limit a quota error is about, and its configured value. */
export interface SandboxLimitBreach {
  readonly name: SandboxLimitName;
  readonly value: number;
}

/**
 * Where the runtime last said it was (`__host.checkpoint`) when the worker
 * stopped the run from outside — wall clock, memory, output — or the run
 * failed otherwise: a source line and the steps (fuel) it had taken. The
 * runtime writes it now and then, so it lags the run's true position a little.
 */
export interface SandboxCheckpoint {
  readonly line: number;
  readonly steps: number;
}

/** The plain-data form of a sandbox error (what `toJSON` returns). */
export interface SandboxErrorData {
  readonly code: SandboxErrorCode;
  readonly message: string;
  readonly limit?: SandboxLimitBreach;
  readonly checkpoint?: SandboxCheckpoint;
}

// A registry-wide marker, so `isInstance` works across duplicated copies of the package.
const MARKER = Symbol.for('askloop.interpreter.sandbox-error');

/** The sandbox's error: a stable `code`, a message, for quota errors the limit, and where the run was when the runtime said so. */
export class SandboxError extends Error {
  readonly code: SandboxErrorCode;
  readonly limit: SandboxLimitBreach | undefined;
  readonly checkpoint: SandboxCheckpoint | undefined;
  readonly [MARKER] = true;

  constructor(code: SandboxErrorCode, message: string, options: { limit?: SandboxLimitBreach; checkpoint?: SandboxCheckpoint; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SandboxError';
    this.code = code;
    this.limit = options.limit;
    this.checkpoint = options.checkpoint;
  }

  /** True for any `SandboxError`, even one from another copy of this package. */
  static isInstance(value: unknown): value is SandboxError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }

  /** Plain data: code, message, limit and checkpoint (those two when known). */
  toJSON(): SandboxErrorData {
    return {
      code: this.code,
      message: this.message,
      ...(this.limit === undefined ? {} : { limit: this.limit }),
      ...(this.checkpoint === undefined ? {} : { checkpoint: this.checkpoint }),
    };
  }
}

/** Builds the quota error for a breached limit; the message names the limit and its value. */
export function quotaError(code: SandboxErrorCode, limit: SandboxLimitBreach, what: string, checkpoint?: SandboxCheckpoint): SandboxError {
  return new SandboxError(code, `${what} (limit ${limit.name} = ${limit.value})`, checkpoint === undefined ? { limit } : { limit, checkpoint });
}
