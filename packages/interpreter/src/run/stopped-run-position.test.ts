/**
 * A run the sandbox stops from outside — its isolate out of memory — still
 * says where it was: the line and fuel of the evaluator's last checkpoint
 * (shared memory the worker reads after the isolate is gone), not line 0 and
 * fuel 0. Real programs, a real pool.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createSandboxPool } from '../sandbox/index.ts';
import { createInterpreter } from './create-interpreter.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

describe('a run stopped by the sandbox', () => {
  it('out of memory: SCRIPT_MEMORY_LIMIT at a line of the loop that grew, with the fuel spent so far', async () => {
    // Distinct maps and lists (V8 would share repeated strings), kept in one ever longer list.
    const source = ['command', '  set all = []', '  set i = 0', '  while true', '    set all[len(all)] = {"k": i, "v": [i, i + 1]}', '    set i = i + 1', '  endwhile', 'endcommand', ''].join('\n');
    const interpreter = createInterpreter({ pool });
    const result = await interpreter.run(source, { limits: { memoryMb: 16, wallMs: 60_000, fuel: Infinity, loopIterations: Infinity, collectionSize: Infinity } });
    expect(result.error).toMatchObject({ code: 'SCRIPT_MEMORY_LIMIT', kind: 'quota' });
    expect([4, 5, 6]).toContain(result.error?.line);
    // Thousands of iterations ran before 16 MiB were full.
    expect(result.usage.fuel).toBeGreaterThan(10_000);
  });
});
