/**
 * The options check of `createSandboxPool`: a misspelt option (`wrokers`)
 * was ignored and the pool ran with the default, and a count or time that is
 * not a number in range (`maxRunsPerWorker: 'many'`) switched its bound off.
 * Both are `SANDBOX_INVALID_REQUEST` naming the option.
 */
import type { SandboxPoolOptions } from './sandbox-pool-types.ts';
import { SandboxError } from './sandbox-error.ts';
import { closestName } from '../check/closest-name.ts';

/** Every option `createSandboxPool` reads. */
const POOL_OPTIONS = ['workers', 'limits', 'maxRunsPerWorker', 'maxWorkerRssMb', 'cancelGraceMs', 'maxQueueMs', 'backstopGraceMs', 'maxNestedWorkers', 'maxRuntimesPerWorker', 'memoryWatchdog', 'workerEntry'] as const;

/** Options that are a whole number of at least this (the others have checks of their own). */
const COUNTS: Readonly<Record<string, number>> = { maxRunsPerWorker: 1, maxWorkerRssMb: 1, cancelGraceMs: 0, maxRuntimesPerWorker: 1 };
/** The bounds that replace a worker, which `Infinity` switches off on purpose (never replace it for that). */
const MAY_BE_INFINITE: ReadonlySet<string> = new Set(['maxRunsPerWorker', 'maxWorkerRssMb']);

/** Throws `SANDBOX_INVALID_REQUEST` for an unknown option, a count out of range, or a malformed `memoryWatchdog`. */
export function checkPoolOptions(options: SandboxPoolOptions): void {
  const invalid = (why: string) => new SandboxError('SANDBOX_INVALID_REQUEST', `createSandboxPool(): ${why}`);
  if (typeof options !== 'object' || options === null) throw invalid(`its options are an object ({ workers, limits, … }), got ${String(options)}`);
  for (const [key, value] of Object.entries(options)) {
    if (!(POOL_OPTIONS as readonly string[]).includes(key)) {
      const meant = closestName(key, POOL_OPTIONS);
      throw invalid(`there is no option ${key}${meant === undefined ? '' : `; did you mean ${meant}?`} (the options: ${POOL_OPTIONS.join(', ')})`);
    }
    const least = COUNTS[key];
    const infinite = value === Number.POSITIVE_INFINITY && MAY_BE_INFINITE.has(key);
    if (least !== undefined && value !== undefined && !infinite && !(Number.isSafeInteger(value) && (value as number) >= least)) {
      throw invalid(`${key} must be a whole number >= ${least}${MAY_BE_INFINITE.has(key) ? ' (or Infinity: never)' : ''}, got ${String(value)}`);
    }
  }
  const watchdog = options.memoryWatchdog;
  if (watchdog !== undefined) {
    if (typeof watchdog !== 'object' || watchdog === null) throw invalid(`memoryWatchdog must be { factor?, floorMb? }, got ${String(watchdog)}`);
    for (const [key, value] of Object.entries(watchdog)) {
      if (key !== 'factor' && key !== 'floorMb') throw invalid(`memoryWatchdog has no option ${key} (its options: factor, floorMb)`);
      if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0)) throw invalid(`memoryWatchdog.${key} must be a number above 0, got ${String(value)}`);
    }
  }
}
