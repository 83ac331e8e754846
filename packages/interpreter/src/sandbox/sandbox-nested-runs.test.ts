/**
 * Runs started inside another run's tool call (an `ask`'s child loop) are
 * nested in it: the parent's worker waits on them, so the pool starts a
 * worker more for each waiting parent instead of leaving the nested runs
 * queued behind the workers their parents hold.
 */
import { describe, expect, it } from 'vitest';
import { createSandboxPool } from './sandbox-pool.ts';
import type { SandboxPool } from './sandbox-pool-types.ts';
import { ADD_ONE, NO_TOOLS, runtimeOf } from './sandbox-test-runtimes.ts';
import type { ToolCallHandler } from './sandbox-types.ts';

/** `main(depth)` asks the host for `nested(depth)` and returns its answer (a tool outcome). */
const ASKING = runtimeOf("return __host.callTool('tool.nested', [input]);", 'asking');

/** A handler that answers `nested(depth)` with a run on `pool`: of ASKING at `depth - 1`, or of ADD_ONE at depth 0. */
function nestedOn(pool: SandboxPool, seen: { depth: number; workers: number }[] = []): ToolCallHandler {
  const handler: ToolCallHandler = async (_name, args) => {
    const depth = (args as number[])[0] as number;
    const result = depth > 0 ? await pool.run({ runtime: ASKING, entry: 'main', input: depth - 1, onToolCall: handler }) : await pool.run({ runtime: ADD_ONE, entry: 'main', input: 41, onToolCall: NO_TOOLS });
    seen.push({ depth, workers: pool.stats().workers });
    if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
    return result.value;
  };
  return handler;
}

describe('sandbox pool: nested runs', () => {
  it('runs a run nested in a tool call of the only worker\'s run (it used to wait for that worker until maxQueueMs)', async () => {
    const pool = createSandboxPool({ workers: 1, maxQueueMs: 3_000 });
    try {
      const result = await pool.run({ runtime: ASKING, entry: 'main', input: 0, onToolCall: nestedOn(pool) });
      expect(result).toMatchObject({ ok: true, value: { ok: true, value: 42 } });
    } finally {
      await pool.close();
    }
  });

  it('nests two deep, and many parents at once, then lets the extra workers go', async () => {
    const pool = createSandboxPool({ workers: 2, maxQueueMs: 10_000, maxNestedWorkers: 8 });
    try {
      const seen: { depth: number; workers: number }[] = [];
      const deep = await pool.run({ runtime: ASKING, entry: 'main', input: 1, onToolCall: nestedOn(pool, seen) });
      expect(deep).toMatchObject({ ok: true, value: { ok: true, value: { ok: true, value: 42 } } });
      const many = await Promise.all(Array.from({ length: 6 }, () => pool.run({ runtime: ASKING, entry: 'main', input: 0, onToolCall: nestedOn(pool, seen) })));
      for (const result of many) expect(result).toMatchObject({ ok: true, value: { ok: true, value: 42 } });
      // Never more than workers + maxNestedWorkers, and more than `workers` while parents waited.
      expect(Math.max(...seen.map((entry) => entry.workers))).toBeLessThanOrEqual(2 + 8);
      expect(Math.max(...seen.map((entry) => entry.workers))).toBeGreaterThan(2);
      await expect.poll(() => pool.stats().workers, { timeout: 5_000 }).toBe(2);
      expect(pool.stats().workerDeaths).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('starts no extra worker with maxNestedWorkers 0: the nested run waits, here until maxQueueMs', async () => {
    const pool = createSandboxPool({ workers: 1, maxQueueMs: 300, maxNestedWorkers: 0 });
    try {
      // Warm first: the parent's own wait for a cold worker must not use up its 300 ms.
      await pool.warmup();
      const result = await pool.run({ runtime: ASKING, entry: 'main', input: 0, onToolCall: nestedOn(pool) });
      expect(result).toMatchObject({ ok: true, value: { ok: false, error: { code: 'SANDBOX_QUEUE_TIMEOUT' } } });
    } finally {
      await pool.close();
    }
  });

  it('keeps the extra workers for nested runs: more parents than workers + maxNestedWorkers, each a loop of children, all finish', async () => {
    // Runs that are not nested hold at most `workers` (1) workers, so the one extra is always there for a child.
    const pool = createSandboxPool({ workers: 1, maxNestedWorkers: 1, maxQueueMs: 20_000 });
    try {
      const children = (count: number): ToolCallHandler => async () => {
        let sum = 0;
        for (let child = 0; child < count; child += 1) {
          const result = await pool.run({ runtime: ADD_ONE, entry: 'main', input: child, onToolCall: NO_TOOLS });
          if (!result.ok) throw Object.assign(new Error(result.error.message), { code: result.error.code });
          sum += result.value as number;
          // The child loop's model call between its turns: the parent still waits in its tool call.
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return sum;
      };
      const results = await Promise.all(Array.from({ length: 4 }, () => pool.run({ runtime: ASKING, entry: 'main', input: 0, onToolCall: children(2) })));
      for (const result of results) expect(result).toMatchObject({ ok: true, value: { ok: true, value: 1 + 2 } });
      expect(pool.stats().workersStarted).toBeLessThanOrEqual(2);
    } finally {
      await pool.close();
    }
  });

  it("keeps the extra worker for the whole tool call (a child loop's turns reuse it), and stops it after", async () => {
    const pool = createSandboxPool({ workers: 1, maxQueueMs: 20_000 });
    try {
      await pool.warmup();
      const fiveTurns: ToolCallHandler = async () => {
        for (let turn = 0; turn < 5; turn += 1) {
          expect(await pool.run({ runtime: ADD_ONE, entry: 'main', input: turn, onToolCall: NO_TOOLS })).toMatchObject({ ok: true, value: turn + 1 });
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return 'done';
      };
      expect(await pool.run({ runtime: ASKING, entry: 'main', input: 0, onToolCall: fiveTurns })).toMatchObject({ ok: true, value: { ok: true, value: 'done' } });
      // The base worker and one extra, never a fresh one per child turn, and the base worker was never stopped.
      expect(pool.stats().workersStarted).toBe(2);
      await expect.poll(() => pool.stats().workers, { timeout: 5_000 }).toBe(1);
      expect(pool.stats()).toMatchObject({ lending: 0, workerDeaths: 0 });
      expect(await pool.run({ runtime: ADD_ONE, entry: 'main', input: 1, onToolCall: NO_TOOLS })).toMatchObject({ ok: true, value: 2 });
      expect(pool.stats().workersStarted).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('does not count a run started after the tool call returned as nested (work a tool left running)', async () => {
    const pool = createSandboxPool({ workers: 1, maxQueueMs: 20_000 });
    try {
      await pool.warmup();
      let later: Promise<unknown> | undefined;
      let lendingThen = -1;
      const leavesWork: ToolCallHandler = () => {
        // Started from the tool call's async context, but after the call has answered.
        later = new Promise((resolve) => setTimeout(resolve, 50)).then(() => {
          const run = pool.run({ runtime: ADD_ONE, entry: 'main', input: 1, onToolCall: NO_TOOLS });
          lendingThen = pool.stats().lending;
          return run;
        });
        return 'answered';
      };
      expect(await pool.run({ runtime: ASKING, entry: 'main', input: 0, onToolCall: leavesWork })).toMatchObject({ ok: true, value: { ok: true, value: 'answered' } });
      expect(await later).toMatchObject({ ok: true, value: 2 });
      expect(lendingThen).toBe(0);
      expect(pool.stats().workersStarted).toBe(1);
    } finally {
      await pool.close();
    }
  });

  it('rejects maxNestedWorkers that is not a whole number >= 0', () => {
    expect(() => createSandboxPool({ maxNestedWorkers: -1 })).toThrow(/maxNestedWorkers must be an integer >= 0/);
    expect(() => createSandboxPool({ maxNestedWorkers: 1.5 })).toThrow(/maxNestedWorkers/);
  });
});
