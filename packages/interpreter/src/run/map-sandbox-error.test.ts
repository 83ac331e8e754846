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

  it('leaves it off a sandbox fault: that line did not cause it, and the model would be pointed at it (found by review)', () => {
    const mapped = mapSandboxError(new SandboxError('SANDBOX_RUNTIME_ERROR', 'the runtime failed', { checkpoint: { line: 6, steps: 100 } }));
    expect(mapped).toMatchObject({ code: 'SCRIPT_INTERNAL', line: 0 });
  });
});
