/** The pool's queue: a run's clock starts when a worker takes it, and a run that never gets one ends with a typed error. */
import { afterEach, describe, expect, it } from 'vitest';
import { createSandboxPool } from './sandbox-pool.ts';
import type { SandboxPool } from './sandbox-pool-types.ts';
import { ADD_ONE, NO_TOOLS, runtimeOf } from './sandbox-test-runtimes.ts';

/** A run that holds its worker until `release` is called (its one tool call waits for it). */
const HOLD = runtimeOf(`return __host.callTool('tool.hold', []).ok;`, 'hold');

let pool: SandboxPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('sandbox pool: queue', () => {
  it('calls onStart when a worker takes the run, after the runs ahead of it', async () => {
    pool = createSandboxPool({ workers: 1 });
    await pool.warmup();
    const seen: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = pool.run({
      runtime: HOLD,
      entry: 'main',
      input: null,
      onStart: () => seen.push('first started'),
      onToolCall: async () => {
        seen.push('first holds the worker');
        await held;
        return null;
      },
    });
    const second = pool.run({ runtime: ADD_ONE, entry: 'main', input: 1, onStart: () => seen.push('second started'), onToolCall: NO_TOOLS });
    // Let the first run reach its tool call while the second waits in the queue.
    while (!seen.includes('first holds the worker')) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(pool.stats().queued).toBe(1);
    seen.push('first released');
    release();
    expect(await first).toMatchObject({ ok: true, value: true });
    expect(await second).toMatchObject({ ok: true, value: 2 });
    expect(seen).toEqual(['first started', 'first holds the worker', 'first released', 'second started']);
  });

  it('ends a run that waits longer than maxQueueMs with SANDBOX_QUEUE_TIMEOUT, never starting it, and keeps serving', async () => {
    pool = createSandboxPool({ workers: 1, maxQueueMs: 200 });
    await pool.warmup();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = pool.run({ runtime: HOLD, entry: 'main', input: null, onToolCall: () => held.then(() => null) });
    let secondStarted = false;
    const second = await pool.run({ runtime: ADD_ONE, entry: 'main', input: 1, onStart: () => (secondStarted = true), onToolCall: NO_TOOLS });
    expect(second).toMatchObject({ ok: false, error: { code: 'SANDBOX_QUEUE_TIMEOUT' } });
    expect(second.ok ? '' : second.error.message).toContain('maxQueueMs = 200');
    expect(secondStarted).toBe(false);
    expect(pool.stats().queued).toBe(0);
    release();
    expect(await first).toMatchObject({ ok: true, value: true });
    expect(await pool.run({ runtime: ADD_ONE, entry: 'main', input: 2, onToolCall: NO_TOOLS })).toMatchObject({ ok: true, value: 3 });
  });

  it('rejects a run whose onStart throws (a host mistake) and keeps the worker', async () => {
    pool = createSandboxPool({ workers: 1 });
    const failure = new Error('the host could not start the run');
    await expect(pool.run({ runtime: ADD_ONE, entry: 'main', input: 1, onStart: () => { throw failure; }, onToolCall: NO_TOOLS })).rejects.toBe(failure);
    expect(await pool.run({ runtime: ADD_ONE, entry: 'main', input: 1, onToolCall: NO_TOOLS })).toMatchObject({ ok: true, value: 2 });
    expect(pool.stats()).toMatchObject({ workersStarted: 1, workerDeaths: 0 });
  });

  it('refuses a maxQueueMs that is not a number of ms a timer can wait', () => {
    for (const maxQueueMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31]) {
      expect(() => createSandboxPool({ maxQueueMs })).toThrow(expect.objectContaining({ code: 'SANDBOX_INVALID_REQUEST' }));
    }
  });
});
