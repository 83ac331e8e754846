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

/** The plain-data form of a sandbox error (what `toJSON` returns). */
export interface SandboxErrorData {
  readonly code: SandboxErrorCode;
  readonly message: string;
  readonly limit?: SandboxLimitBreach;
}

// A registry-wide marker, so `isInstance` works across duplicated copies of the package.
const MARKER = Symbol.for('askloop.interpreter.sandbox-error');

/** The sandbox's error: a stable `code`, a message and, for quota errors, the limit. */
export class SandboxError extends Error {
  readonly code: SandboxErrorCode;
  readonly limit: SandboxLimitBreach | undefined;
  readonly [MARKER] = true;

  constructor(code: SandboxErrorCode, message: string, options: { limit?: SandboxLimitBreach; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SandboxError';
    this.code = code;
    this.limit = options.limit;
  }

  /** True for any `SandboxError`, even one from another copy of this package. */
  static isInstance(value: unknown): value is SandboxError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
  }

  /** Plain data: code, message and limit. */
  toJSON(): SandboxErrorData {
    return this.limit === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, limit: this.limit };
  }
}

/** Builds the quota error for a breached limit; the message names the limit and its value. */
export function quotaError(code: SandboxErrorCode, limit: SandboxLimitBreach, what: string): SandboxError {
  return new SandboxError(code, `${what} (limit ${limit.name} = ${limit.value})`, { limit });
}
