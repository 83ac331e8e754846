/**
 * The worker holds a runtime to the deadline it set itself in
 * `__host.checkpoint[2]` (the evaluator's `wallMs`): a run still computing
 * past it is ended soon after, not when the sandbox's own, later `wallMs`
 * runs out. Real isolates in a real worker process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIME_DEADLINE_SLACK_MS } from './runtime-deadline.ts';
import { createSandboxPool } from './sandbox-pool.ts';
import type { SandboxPool } from './sandbox-pool-types.ts';
import { NO_TOOLS, runtimeOf } from './sandbox-test-runtimes.ts';

let pool: SandboxPool;
beforeAll(async () => {
  pool = createSandboxPool({ workers: 1, limits: { wallMs: 10_000 } });
  await pool.warmup();
});
afterAll(async () => {
  await pool.close();
});

/** Busy-waits until `__host.now()` passes `until` (an expression). */
const spinUntil = (until: string) => `for (const end = ${until}; __host.now() <= end;) {}`;

describe('sandbox pool: the deadline a runtime sets itself', () => {
  it('ends a run still computing past it soon after, not at the sandbox\'s wallMs (10 s here)', async () => {
    const runtime = runtimeOf('__host.checkpoint[0] = 3; __host.checkpoint[1] = 40; __host.checkpoint[2] = __host.now() + 50; for (;;) {}', 'past-deadline');
    const result = await pool.run({ runtime, entry: 'main', input: null, onToolCall: NO_TOOLS });
    expect(result).toMatchObject({ ok: false, error: { code: 'SANDBOX_TIMEOUT', limit: { name: 'wallMs', value: 10_000 }, checkpoint: { line: 3, steps: 40 } } });
    if (!result.ok) expect(result.error.message).toContain(`${RUNTIME_DEADLINE_SLACK_MS} ms past the deadline its runtime set itself`);
    // About 50 + 20 ms; generous for a loaded machine, and far from the 10 s the sandbox's own clock would take.
    expect(result.usage.wallMs).toBeGreaterThanOrEqual(50);
    expect(result.usage.wallMs).toBeLessThan(3_000);
  });

  it('lets a runtime that withdrew its deadline (0: it noticed, and winds up) run on to the sandbox\'s wallMs', async () => {
    // Withdrawn after the worker has seen it (it looks every few ms until there is one), before it passes.
    const runtime = runtimeOf(`__host.checkpoint[2] = __host.now() + 30; ${spinUntil('__host.now() + 15')} __host.checkpoint[2] = 0; ${spinUntil('__host.now() + 200')} return 'wound up';`, 'withdrawn');
    expect(await pool.run({ runtime, entry: 'main', input: null, onToolCall: NO_TOOLS })).toMatchObject({ ok: true, value: 'wound up' });
  });

  it('gives a run back from a tool call that outlasted the deadline time to notice it', async () => {
    const runtime = runtimeOf(`__host.checkpoint[2] = __host.now() + 10; __host.callTool('slow', []); __host.checkpoint[2] = 0; return 'noticed';`, 'slow-call');
    const slow = () => new Promise((resolve) => setTimeout(() => resolve(null), 150));
    expect(await pool.run({ runtime, entry: 'main', input: null, onToolCall: slow })).toMatchObject({ ok: true, value: 'noticed' });
  });

  it('ignores a deadline that is no time (NaN, negative, infinite)', async () => {
    for (const deadline of ['NaN', '-5', 'Infinity']) {
      const runtime = runtimeOf(`__host.checkpoint[2] = ${deadline}; ${spinUntil('__host.now() + 150')} return 'ran on';`, `odd-deadline-${deadline}`);
      expect(await pool.run({ runtime, entry: 'main', input: null, onToolCall: NO_TOOLS })).toMatchObject({ ok: true, value: 'ran on' });
    }
  });
});
