/** How a sandbox's error reads to the program and the model: where a checkpoint's line may be shown, and where not. */
import { describe, expect, it } from 'vitest';
import { SandboxError } from '../sandbox/sandbox-error.ts';
import { mapSandboxError } from './map-sandbox-error.ts';

describe('mapSandboxError', () => {
  it('puts the checkpoint line on a run stopped for its time, memory or caller', () => {
    for (const code of ['SANDBOX_TIMEOUT', 'SANDBOX_MEMORY', 'SANDBOX_ABORTED'] as const) {
      expect(mapSandboxError(new SandboxError(code, 'stopped', { checkpoint: { line: 6, steps: 100 } }), 1000)).toMatchObject({ line: 6 });
    }
  });

  it('says a run stopped for its time or memory was stopped at or after that line (the slow step may come later), and nothing of a line it has not', () => {
    expect(mapSandboxError(new SandboxError('SANDBOX_TIMEOUT', 'stopped', { checkpoint: { line: 4, steps: 10_000 } }), 100).message).toBe('The program ran longer than 100 ms (limit: wallMs). It was stopped at or after line 4.');
    expect(mapSandboxError(new SandboxError('SANDBOX_MEMORY', 'out of memory', { checkpoint: { line: 5, steps: 230_000 } })).message).toBe('out of memory (limit: memoryMb); it was stopped at or after line 5.');
    expect(mapSandboxError(new SandboxError('SANDBOX_TIMEOUT', 'stopped'), 100).message).toBe('The program ran longer than 100 ms (limit: wallMs).');
    expect(mapSandboxError(new SandboxError('SANDBOX_ABORTED', 'cancelled', { checkpoint: { line: 6, steps: 1 } })).message).toBe('cancelled (its signal: the caller cancelled it)');
  });

  it('leaves it off a sandbox fault: that line did not cause it, and the model would be pointed at it (found by review)', () => {
    const mapped = mapSandboxError(new SandboxError('SANDBOX_RUNTIME_ERROR', 'the runtime failed', { checkpoint: { line: 6, steps: 100 } }));
    expect(mapped).toMatchObject({ code: 'SCRIPT_INTERNAL', line: 0 });
  });
});
