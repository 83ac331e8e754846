/**
 * `createSandboxPool` refuses options it would ignore or that would switch a
 * bound off (walkthrough: `createSandboxPool({ wrokers: 3 })` was accepted
 * and ran two workers; `maxRunsPerWorker`, `cancelGraceMs`,
 * `maxRuntimesPerWorker` and `memoryWatchdog` were never checked).
 */
import { describe, expect, it } from 'vitest';
import { createSandboxPool } from './sandbox-pool.ts';

const refusal = (options: unknown): string | undefined => {
  try {
    void createSandboxPool(options as never).close();
  } catch (error) {
    return `${(error as { code?: string }).code}: ${(error as Error).message}`;
  }
  return undefined;
};

describe('createSandboxPool options', () => {
  it('refuses a misspelt option, naming the one meant', () => {
    expect(refusal({ wrokers: 3 })).toBe('SANDBOX_INVALID_REQUEST: createSandboxPool(): there is no option wrokers; did you mean workers? (the options: workers, limits, maxRunsPerWorker, maxWorkerRssMb, cancelGraceMs, maxQueueMs, backstopGraceMs, maxNestedWorkers, maxRuntimesPerWorker, memoryWatchdog, workerEntry)');
    expect(refusal({ maxRunPerWorker: 10 })).toContain('did you mean maxRunsPerWorker?');
    expect(refusal({ memoryWatchdog: { floor: 10 } })).toBe('SANDBOX_INVALID_REQUEST: createSandboxPool(): memoryWatchdog has no option floor (its options: factor, floorMb)');
  });

  it('refuses counts and times out of range', () => {
    expect(refusal({ maxRunsPerWorker: 'many' })).toBe('SANDBOX_INVALID_REQUEST: createSandboxPool(): maxRunsPerWorker must be a whole number >= 1 (or Infinity: never), got many');
    expect(refusal({ cancelGraceMs: Number.POSITIVE_INFINITY })).toBe('SANDBOX_INVALID_REQUEST: createSandboxPool(): cancelGraceMs must be a whole number >= 0, got Infinity');
    expect(refusal({ cancelGraceMs: -1 })).toContain('cancelGraceMs must be a whole number >= 0');
    expect(refusal({ maxRuntimesPerWorker: 0 })).toContain('maxRuntimesPerWorker must be a whole number >= 1');
    expect(refusal({ maxWorkerRssMb: Number.NaN })).toContain('maxWorkerRssMb must be a whole number >= 1');
    expect(refusal({ memoryWatchdog: { factor: 0 } })).toContain('memoryWatchdog.factor must be a number above 0');
  });

  it('takes the documented options', () => {
    expect(refusal({ workers: 1, limits: { wallMs: 100 }, maxRunsPerWorker: 5, maxWorkerRssMb: 512, cancelGraceMs: 0, maxQueueMs: 1000, backstopGraceMs: 0, maxNestedWorkers: 0, maxRuntimesPerWorker: 2, memoryWatchdog: { factor: 2, floorMb: 128 } })).toBeUndefined();
    expect(refusal({})).toBeUndefined();
    // Review: never replacing a worker (for its runs, or its memory) is a choice, not a slip.
    expect(refusal({ maxRunsPerWorker: Number.POSITIVE_INFINITY, maxWorkerRssMb: Number.POSITIVE_INFINITY })).toBeUndefined();
  });
});
