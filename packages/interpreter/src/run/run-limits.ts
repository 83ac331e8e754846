/**
 * A run's limits as the host sends them into the sandbox: the defaults filled
 * in, each one checked, and `Infinity` ("no limit") made the largest safe
 * integer. The limits cross as JSON, where `Infinity` would become `null` —
 * a run given `fuel: Infinity` once ran out of fuel "after null steps" at its
 * first statement.
 */
import { DEFAULT_LIMITS, resolveLimits, type RunLimits } from '../runtime/index.ts';
import { SandboxError } from '../sandbox/sandbox-error.ts';

/** What `Infinity` becomes: more steps, items, bytes or ms than any run reaches. */
export const NO_LIMIT = Number.MAX_SAFE_INTEGER;

/** `given` over the defaults, checked; rejects (`SANDBOX_INVALID_REQUEST`, naming the limit) a limit that does not exist or a value that is not a number >= 0. */
export function runLimits(given: Partial<RunLimits> | undefined): RunLimits {
  // A misspelt limit (`wallMS`) would be ignored, and the run would keep the default it meant to change.
  for (const name of Object.keys(given ?? {})) {
    if (!(name in DEFAULT_LIMITS)) {
      const meant = Object.keys(DEFAULT_LIMITS).find((known) => known.toLowerCase() === name.toLowerCase());
      throw new SandboxError('SANDBOX_INVALID_REQUEST', `there is no limit ${name}${meant === undefined ? '' : `; did you mean ${meant}?`} (the limits: ${Object.keys(DEFAULT_LIMITS).join(', ')})`);
    }
  }
  const sent: Record<string, number> = {};
  for (const [name, value] of Object.entries(resolveLimits(given))) {
    if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
      throw new SandboxError('SANDBOX_INVALID_REQUEST', `limit ${name} must be a number >= 0 (Infinity for no limit), got ${String(value)}`);
    }
    // The isolate's heap must have a size.
    if (value === Infinity && name === 'memoryMb') throw new SandboxError('SANDBOX_INVALID_REQUEST', 'limit memoryMb must be a finite number of MiB, got Infinity');
    sent[name] = value === Infinity ? NO_LIMIT : value;
  }
  return sent as unknown as RunLimits;
}
