/**
 * Quotas the sandbox enforces per run (seed 002 §7, seed 003 §11.2: wall,
 * CPU and memory quotas; on breach the interpreter is terminated). The
 * evaluator enforces its own finer limits (fuel, call depth…) inside the
 * isolate; these are the backstops that hold whatever the code in the isolate does.
 */
import { SandboxError } from './sandbox-error.ts';

/** Per-run quotas. */
export interface SandboxLimits {
  /**
   * Wall-clock per run in ms, from the moment the run reaches its worker to its
   * result: the run's time in the isolate plus the host's time on its tool
   * calls, not the time its messages wait on a busy host. Enforced by a clock
   * in the worker, by the host while a tool call is with it, and by the host's
   * backstop for a worker that stops answering (`backstopGraceMs`).
   */
  readonly wallMs: number;
  /** Isolate heap in MiB (isolated-vm `memoryLimit`, at least 8), plus a watchdog on the worker's RSS. */
  readonly memoryMb: number;
  /** Tool calls per run; every call counts, including ones that fail. */
  readonly maxToolCalls: number;
  /** UTF-8 bytes of all event payloads plus the result, as JSON. */
  readonly maxOutputBytes: number;
  /**
   * Characters of all tool calls' arguments and results per run, as JSON: a
   * call whose arguments would pass it gets `SCRIPT_TOOL_DATA_LIMIT` without
   * running, and so does one whose result would (the tool ran; its result is
   * not delivered). Bounds what a host records of a run's calls.
   */
  readonly maxToolDataChars: number;
}

/** Defaults, aligned with the evaluator's `DEFAULT_LIMITS` (src/runtime/limits.ts). */
export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = Object.freeze({
  wallMs: 5_000,
  memoryMb: 64,
  maxToolCalls: 100,
  maxOutputBytes: 1024 * 1024,
  maxToolDataChars: 16 * 1024 * 1024,
});

/** Fills unset limits from `base` and validates them; throws `SANDBOX_INVALID_REQUEST`. */
export function resolveSandboxLimits(limits: Partial<SandboxLimits> | undefined, base: SandboxLimits = DEFAULT_SANDBOX_LIMITS): SandboxLimits {
  const resolved: SandboxLimits = { ...base, ...definedOnly(limits) };
  for (const [name, value] of Object.entries(resolved)) {
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new SandboxError('SANDBOX_INVALID_REQUEST', `limit ${name} must be a finite number >= 0, got ${String(value)}`);
    }
  }
  if (resolved.memoryMb < 8) {
    throw new SandboxError('SANDBOX_INVALID_REQUEST', `limit memoryMb must be at least 8 (isolated-vm's minimum), got ${resolved.memoryMb}`);
  }
  if (resolved.wallMs < 1) {
    throw new SandboxError('SANDBOX_INVALID_REQUEST', `limit wallMs must be at least 1, got ${resolved.wallMs}`);
  }
  return Object.freeze(resolved);
}

function definedOnly(limits: Partial<SandboxLimits> | undefined): Partial<SandboxLimits> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(limits ?? {})) {
    // A misspelt limit (`walMs`) was kept and ignored: the run got the default instead.
    if (!Object.hasOwn(DEFAULT_SANDBOX_LIMITS, key)) {
      throw new SandboxError('SANDBOX_INVALID_REQUEST', `there is no sandbox limit ${key} (the limits: ${Object.keys(DEFAULT_SANDBOX_LIMITS).join(', ')})`);
    }
    if (value !== undefined) out[key] = value;
  }
  return out;
}
