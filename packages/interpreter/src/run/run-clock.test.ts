/**
 * A run's wall clock starts when a sandbox worker takes it: time spent queued
 * behind other sessions' runs is not the program's (it once made busy hosts'
 * runs halt with a spurious SCRIPT_TIMEOUT).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createSandboxPool } from '../sandbox/index.ts';
import type { ToolCatalog } from '../tool-signature.ts';
import { createInterpreter } from './create-interpreter.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

const catalog: ToolCatalog = {
  get: (name) => (name.toLowerCase() === 'tool.test.hold' ? { name: 'tool.test.hold', arguments: [], variadic: true } : undefined),
  names: () => ['tool.test.hold'],
};

describe('the run clock', () => {
  it('does not count a wait in the pool queue against a queued run’s wallMs', async () => {
    const interpreter = createInterpreter({ pool });
    const seen: string[] = [];
    let holding: () => void = () => {};
    const reached = new Promise<void>((resolve) => (holding = resolve));
    // The first run holds the only worker in a tool call for longer than the second run's whole wall quota.
    const tools = {
      catalog,
      call: async () => {
        holding();
        await new Promise((resolve) => setTimeout(resolve, 1_200));
        return 'held';
      },
    };
    const first = interpreter.run('command\n  emit tool.test.hold()\nendcommand\n', { tools, limits: { wallMs: 5_000 }, onStart: () => seen.push('first started') });
    await reached;
    // Enough steps that the evaluator looks at its clock (it does every thousand or so), well within 600 ms of its own time.
    const counting = 'command\n  set i = 0\n  while i < 5000\n    set i = i + 1\n  endwhile\n  emit "queued, then quick"\nendcommand\n';
    const second = interpreter.run(counting, { limits: { wallMs: 600, loopIterations: 100_000, fuel: 1_000_000 }, onStart: () => seen.push('second started') });
    expect((await first).emits).toEqual(['held']);
    const result = await second;
    expect(result.error).toBeNull();
    expect(result.emits).toEqual(['queued, then quick']);
    expect(seen).toEqual(['first started', 'second started']);
  });
});
