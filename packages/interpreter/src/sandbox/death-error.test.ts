import { describe, expect, it } from 'vitest';
import { checkpointOf, deathError } from './run-state.ts';
import { resolveSandboxLimits } from './sandbox-limits.ts';
import { WATCHDOG_STDERR_LINE } from './worker-protocol.ts';

describe('deathError', () => {
  const limits = resolveSandboxLimits({ memoryMb: 64 });

  it('is the memory quota error when the worker said its watchdog stopped the run, even if its message was lost', () => {
    const error = deathError({ code: null, signal: 'SIGKILL', stderrTail: `${WATCHDOG_STDERR_LINE} (343 MiB resident)\n` }, limits);
    expect(error).toMatchObject({ code: 'SANDBOX_MEMORY', limit: { name: 'memoryMb', value: 64 } });
  });

  it('is SANDBOX_WORKER_DIED for a death with no word of memory', () => {
    expect(deathError({ code: null, signal: 'SIGKILL', stderrTail: '' }, limits)).toMatchObject({ code: 'SANDBOX_WORKER_DIED' });
  });
});

describe('checkpointOf', () => {
  it('takes a worker\'s checkpoint only as two whole counts >= 0 (a custom worker may send anything)', () => {
    expect(checkpointOf({ line: 7, steps: 4200 })).toEqual({ checkpoint: { line: 7, steps: 4200 } });
    for (const odd of [{ line: 1.5, steps: 3 }, { line: 2, steps: Number.NaN }, { line: -1, steps: 3 }, { line: 2, steps: 2 ** 60 }, { line: '2', steps: 3 }, null]) {
      expect(checkpointOf(odd)).toBeUndefined();
    }
  });
});
