/**
 * `__host.checkpoint`: memory the worker shares with each context, where a
 * runtime writes where it is. The worker reads it after stopping a run —
 * even once the isolate is gone — and the run's error carries it. Real
 * isolates in a real worker process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxPool } from './sandbox-pool.ts';
import type { SandboxPool } from './sandbox-pool-types.ts';
import { ADD_ONE, NO_TOOLS, runtimeOf } from './sandbox-test-runtimes.ts';

let pool: SandboxPool;
beforeAll(async () => {
  pool = createSandboxPool({ workers: 1, limits: { memoryMb: 16, wallMs: 10_000 } });
  await pool.warmup();
});
afterAll(async () => {
  await pool.close();
});

const MARK = '__host.checkpoint[0] = 7; __host.checkpoint[1] = 4200;';

describe('sandbox pool: the runtime checkpoint', () => {
  it('comes with a run stopped for its wall clock', async () => {
    const result = await pool.run({ runtime: runtimeOf(`${MARK} for (;;) {}`), entry: 'main', input: null, limits: { wallMs: 100 }, onToolCall: NO_TOOLS });
    expect(result).toMatchObject({ ok: false, error: { code: 'SANDBOX_TIMEOUT', checkpoint: { line: 7, steps: 4200 } } });
  });

  it('comes with a run whose isolate ran out of memory, read after the isolate is gone', async () => {
    const runtime = runtimeOf(`const all = []; for (let i = 1; ; i++) { all.push({ i }); if (i % 1024 === 0) { __host.checkpoint[0] = 3; __host.checkpoint[1] = i; } }`);
    const result = await pool.run({ runtime, entry: 'main', input: null, onToolCall: NO_TOOLS });
    expect(result).toMatchObject({ ok: false, error: { code: 'SANDBOX_MEMORY', checkpoint: { line: 3 } } });
    if (!result.ok) {
      expect(result.error.checkpoint?.steps).toBeGreaterThan(1024);
      expect(result.error.toJSON()).toMatchObject({ checkpoint: { line: 3 } });
    }
  });

  it('is absent when what the runtime wrote is no whole count (NaN, Infinity, negative, fractional)', async () => {
    for (const [line, steps] of [['NaN', '5'], ['Infinity', '5'], ['-1', '5'], ['2.5', '5'], ['7', '-3']]) {
      const result = await pool.run({ runtime: runtimeOf(`__host.checkpoint[0] = ${line}; __host.checkpoint[1] = ${steps}; for (;;) {}`, `odd-${line}-${steps}`), entry: 'main', input: null, limits: { wallMs: 50 }, onToolCall: NO_TOOLS });
      expect(result).toMatchObject({ ok: false, error: { code: 'SANDBOX_TIMEOUT' } });
      if (!result.ok) expect(result.error.checkpoint).toBeUndefined();
    }
  });

  it('comes with a run the host stops during a tool call, as the worker read it when it forwarded the call', async () => {
    // The runtime says where it is before the call; the host settles a cancel without waiting for the worker.
    const runtime = runtimeOf(`${MARK} __host.callTool('wait', []); __host.checkpoint[0] = 9; __host.checkpoint[1] = 9000; for (;;) {}`, 'mark-then-call');
    const cancel = new AbortController();
    const result = await pool.run({ runtime, entry: 'main', input: null, signal: cancel.signal, onToolCall: () => (cancel.abort(), new Promise(() => {})) });
    expect(result).toMatchObject({ ok: false, error: { code: 'SANDBOX_ABORTED', checkpoint: { line: 7, steps: 4200 } } });
  });

  it('keeps only the steps of the last tool call for a run the host stops while it computes (its line then is unknown)', async () => {
    // The call returns; the run goes on computing, and is cancelled while no call is open.
    const runtime = runtimeOf(`${MARK} __host.callTool('quick', []); __host.event('after', null); for (;;) {}`, 'mark-call-compute');
    const cancel = new AbortController();
    const result = await pool.run({ runtime, entry: 'main', input: null, signal: cancel.signal, onToolCall: () => null, onEvent: () => cancel.abort() });
    expect(result).toMatchObject({ ok: false, error: { code: 'SANDBOX_ABORTED', checkpoint: { line: 0, steps: 4200 } } });
  });

  it('is absent when the runtime never wrote it, and fresh for each run', async () => {
    // The run before wrote one on the same worker and isolate: the next run's context has its own, empty.
    expect(await pool.run({ runtime: runtimeOf(`${MARK} for (;;) {}`), entry: 'main', input: null, limits: { wallMs: 50 }, onToolCall: NO_TOOLS })).toMatchObject({ ok: false, error: { checkpoint: { line: 7 } } });
    const result = await pool.run({ runtime: runtimeOf('for (;;) {}', 'silent'), entry: 'main', input: null, limits: { wallMs: 100 }, onToolCall: NO_TOOLS });
    expect(result).toMatchObject({ ok: false, error: { code: 'SANDBOX_TIMEOUT' } });
    if (!result.ok) expect(result.error.checkpoint).toBeUndefined();
    expect(await pool.run({ runtime: ADD_ONE, entry: 'main', input: 1, onToolCall: NO_TOOLS })).toMatchObject({ ok: true, value: 2 });
  });
});
