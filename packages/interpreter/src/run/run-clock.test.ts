/**
 * A run's wall clock starts when a sandbox worker takes it: time spent queued
 * behind other sessions' runs is not the program's (it once made busy hosts'
 * runs halt with a spurious SCRIPT_TIMEOUT). Nor is time a tool call waits
 * for a stalled host to read it, in the evaluator's clock or the tools'.
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

  it('tells the tools what is left of the program’s time, and does not count a stalled host’s wait against it', async () => {
    const interpreter = createInterpreter({ pool });
    const timeLeft: (number | undefined)[] = [];
    const tools = {
      catalog,
      call: (_name: string, _args: unknown, options?: { timeLeftMs?: number }) => {
        timeLeft.push(options?.timeLeftMs);
        return 'ok';
      },
    };
    // The host is busy for 1.5 s just as the run starts: its first call waits that long to be read. wallMs is 1 s.
    const stall = () => {
      const until = performance.now() + 1_500;
      while (performance.now() < until) {
        // spin
      }
    };
    const program = 'command\n  emit tool.test.hold()\n  set i = 0\n  while i < 5000\n    set i = i + 1\n  endwhile\n  emit tool.test.hold()\nendcommand\n';
    const result = await interpreter.run(program, { tools, limits: { wallMs: 1_000, loopIterations: 100_000, fuel: 1_000_000 }, onStart: stall });
    expect(result.error).toBeNull();
    expect(result.emits).toEqual(['ok', 'ok']);
    expect(result.usage.wallMs).toBeGreaterThanOrEqual(1_500);
    // Both calls had most of the second left (the stall not counted), and the later one less than the first.
    expect(timeLeft).toHaveLength(2);
    const [first, second] = timeLeft as [number, number];
    expect(first).toBeGreaterThan(500);
    expect(first).toBeLessThanOrEqual(1_000);
    expect(second).toBeLessThanOrEqual(first);
  });

  it('says a run whose steps turn slow mid-run, stopped by the sandbox\'s clock, was stopped at or after its last clock read', async () => {
    // 10,000 fast steps, then steps that each count the runes of a 2-million-unit string (a few ms each): the
    // evaluator read its clock last just before they turned slow, and its next read is ~460 slow steps (~1 s) away,
    // so the sandbox's own clock (wallMs + 250 ms) ends the run, at the line of the evaluator's last checkpoint.
    const program =
      'command\n  set s = "\u{1F600}" * 1000000\n  set i = 0\n  while i < 10000\n    set i = i + 1\n  endwhile\n  set n = 0\n  while true\n    set n = n + len(s)\n  endwhile\nendcommand\n';
    const wallMs = 100;
    const result = await createInterpreter({ pool }).run(program, { limits: { wallMs, stringLength: 4_000_000, loopIterations: 1e9, fuel: 1e9 } });
    // Where the evaluator last read its clock: in the fast loop, just before the steps turned slow; the message says the
    // slow step may come after it (it pointed the model at the fast loop as if it were the cause).
    expect(result.error).toMatchObject({ code: 'SCRIPT_TIMEOUT', kind: 'timeout' });
    expect([4, 5]).toContain(result.error?.line);
    expect(result.error?.message).toBe(`The program ran longer than ${wallMs} ms (limit: wallMs). It was stopped at or after line ${result.error?.line}.`);
  });
});
