/**
 * A run's wall clock (`wallMs`) counts the run's own time — in the isolate,
 * and the host's time on its tool calls — and never the time its messages
 * wait on a host too busy to read them. The worker's clock ends a runaway;
 * the host's backstop ends a worker that stops answering.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxPool } from './sandbox-pool.ts';
import type { SandboxPool } from './sandbox-pool-types.ts';
import { NO_TOOLS, runtimeOf } from './sandbox-test-runtimes.ts';

/** Blocks this thread (the host's event loop) for `ms`, as a host busy with other sessions does. */
function stallHost(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spin
  }
}

/** A pool of one worker that says it is ready and then never answers (a wedged worker), with short graces. */
function silentPool(): SandboxPool {
  return createSandboxPool({
    workers: 1,
    backstopGraceMs: 100,
    cancelGraceMs: 100,
    workerEntry: { path: fileURLToPath(new URL('./test-fixtures/silent-worker.ts', import.meta.url)), execArgv: [] },
  });
}

let pool: SandboxPool;
beforeAll(async () => {
  // A short backstop grace, so a backstop that ignored the host's stall would fail the first test.
  pool = createSandboxPool({ workers: 1, backstopGraceMs: 100, cancelGraceMs: 200 });
  await pool.warmup();
});
afterAll(async () => {
  await pool.close();
});

describe('sandbox pool: the wall clock', () => {
  it('does not charge a run for the time its tool call waits on a stalled host', async () => {
    const runtime = runtimeOf(`
      const run = __host.now();
      const answer = __host.callTool('tool.echo', ['hi']);
      return { answer, run: __host.now() - run };
    `);
    const result = await pool.run({
      runtime,
      entry: 'main',
      input: null,
      limits: { wallMs: 300 },
      onToolCall: (_name, args) => (args as unknown[])[0],
      // The run is with the worker now; its tool call arrives while the host cannot read it.
      onStart: () => stallHost(900),
    });
    expect(result).toMatchObject({ ok: true, value: { answer: { ok: true, value: 'hi' } }, usage: { toolCalls: 1 } });
    expect(result.usage.wallMs).toBeGreaterThanOrEqual(900);
    if (result.ok) expect((result.value as { run: number }).run).toBeLessThan(300);
  });

  it('does not fail a run for a stall that ended before the backstop was due but delayed the tool call', async () => {
    const patient = createSandboxPool({ workers: 1 });
    try {
      // wallMs 1000, grace 1000: the call waits 1.5 s on the host, then the program works 600 ms of its own.
      const runtime = runtimeOf(`
        __host.callTool('tool.echo', [1]);
        const until = Date.now() + 600;
        while (Date.now() < until) {}
        return 'done';
      `);
      const result = await patient.run({ runtime, entry: 'main', input: null, limits: { wallMs: 1_000 }, onToolCall: () => 1, onStart: () => stallHost(1_500) });
      expect(result).toMatchObject({ ok: true, value: 'done' });
      expect(result.usage.wallMs).toBeGreaterThanOrEqual(2_000);
    } finally {
      await patient.close();
    }
  });

  it("charges the host's time on tool calls: calls that together outlast wallMs end the run", async () => {
    const seen: string[] = [];
    const runtime = runtimeOf(`
      for (let index = 0; index < 3; index += 1) __host.callTool('tool.slow', [index]);
      return 'never';
    `);
    const result = await pool.run({
      runtime,
      entry: 'main',
      input: null,
      limits: { wallMs: 3_000 },
      onToolCall: (_name, args, { signal }) => {
        const index = String((args as unknown[])[0]);
        seen.push(`call ${index}`);
        return new Promise((resolve) => {
          let answered = false;
          const timer = setTimeout(() => {
            answered = true;
            resolve('slow');
          }, 2_000);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            if (!answered) seen.push(`call ${index} aborted`);
          });
        });
      },
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'SANDBOX_TIMEOUT', limit: { name: 'wallMs', value: 3_000 } }, usage: { toolCalls: 2 } });
    // The second call had about 1 s left: the host stopped it there. (Calls of 2 s on a 3 s clock: the first ends in
    // time even when the host answers it a second late.)
    expect(seen).toEqual(['call 0', 'call 1', 'call 1 aborted']);
    expect(await pool.run({ runtime: runtimeOf('return 1;'), entry: 'main', input: null, onToolCall: NO_TOOLS })).toMatchObject({ ok: true, value: 1 });
  });

  it("ends a runaway with the worker's own clock, long before a far-off backstop", async () => {
    const patient = createSandboxPool({ workers: 1, backstopGraceMs: 60_000 });
    try {
      const result = await patient.run({ runtime: runtimeOf('for (;;) {}'), entry: 'main', input: null, limits: { wallMs: 300 }, onToolCall: NO_TOOLS });
      expect(result).toMatchObject({ ok: false, error: { code: 'SANDBOX_TIMEOUT', limit: { name: 'wallMs', value: 300 } } });
      if (!result.ok) expect(result.error.message).toContain('exceeded its wall-clock limit');
      expect(result.usage.wallMs).toBeLessThan(30_000);
    } finally {
      await patient.close();
    }
  });

  it('fails a run whose worker stops answering once wallMs and the backstop grace have passed, and replaces the worker', async () => {
    const silent = silentPool();
    try {
      const result = await silent.run({ runtime: runtimeOf('return 1;'), entry: 'main', input: null, limits: { wallMs: 200 }, onToolCall: NO_TOOLS });
      expect(result).toMatchObject({ ok: false, error: { code: 'SANDBOX_TIMEOUT', limit: { name: 'wallMs', value: 200 } } });
      if (!result.ok) expect(result.error.message).toContain('did not end the run within its wall-clock limit and 100 ms more');
      expect(result.usage.wallMs).toBeGreaterThanOrEqual(299);
      await expect.poll(() => silent.stats().workerDeaths).toBe(1);
    } finally {
      await silent.close();
    }
  });

  it('runs with a wallMs longer than a timer can wait (2^31 − 1 ms), instead of timing out at once', async () => {
    const result = await pool.run({ runtime: runtimeOf("return __host.callTool('tool.echo', [input]);"), entry: 'main', input: 7, limits: { wallMs: 2 ** 31 + 5 }, onToolCall: (_name, args) => (args as unknown[])[0] });
    expect(result.ok ? undefined : result.error.message).toBeUndefined();
    expect(result).toMatchObject({ ok: true, value: { ok: true, value: 7 } });
  });

  it('still fails a silent worker\'s run while the host is busy in slices (a late backstop looks once more, then decides)', async () => {
    const silent = silentPool();
    try {
      await silent.warmup();
      let settled = false;
      const running = silent.run({ runtime: runtimeOf('return 1;'), entry: 'main', input: null, limits: { wallMs: 200 }, onToolCall: NO_TOOLS }).finally(() => {
        settled = true;
      });
      const started = performance.now();
      // Busy 200 ms at a time, with a turn of the event loop between: every timer fires late.
      while (!settled && performance.now() - started < 3_000) {
        stallHost(200);
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(settled).toBe(true);
      expect(await running).toMatchObject({ ok: false, error: { code: 'SANDBOX_TIMEOUT', limit: { name: 'wallMs', value: 200 } } });
      expect(performance.now() - started).toBeLessThan(3_000);
    } finally {
      await silent.close();
    }
  });

  it('bounds a tool call from a worker that does not say what is left of the wall clock, by what the host reckons', async () => {
    const older = createSandboxPool({
      workers: 1,
      workerEntry: { path: fileURLToPath(new URL('./test-fixtures/no-remaining-worker.ts', import.meta.url)), execArgv: ['--conditions=@askloop/source'] },
    });
    try {
      const result = await older.run({ runtime: runtimeOf("return __host.callTool('tool.never', []);"), entry: 'main', input: null, limits: { wallMs: 200 }, onToolCall: () => new Promise(() => {}) });
      expect(result).toMatchObject({ ok: false, error: { code: 'SANDBOX_TIMEOUT', limit: { name: 'wallMs', value: 200 } }, usage: { toolCalls: 1 } });
      if (!result.ok) expect(result.error.message).toContain('outlasted what was left of its wall-clock limit');
    } finally {
      await older.close();
    }
  });

  it('bounds each of the tool calls a custom worker makes at once by its own timer', async () => {
    const custom = createSandboxPool({
      workers: 1,
      // Its grace would let the run go on for 10 s past its wall clock: only the call's own timer can end it sooner.
      backstopGraceMs: 10_000,
      workerEntry: { path: fileURLToPath(new URL('./test-fixtures/concurrent-calls-worker.ts', import.meta.url)), execArgv: ['--conditions=@askloop/source'] },
    });
    try {
      // Call 0 answers after 50 ms, while call 1 is open too; call 1 never does, and must still be cut at what was
      // left of the wall clock.
      const started = performance.now();
      const later = (value: string) => new Promise((resolve) => setTimeout(() => resolve(value), 50));
      const result = await custom.run({ runtime: runtimeOf('return null;'), entry: 'main', input: null, limits: { wallMs: 300 }, onToolCall: (name) => (name === 'tool.call0' ? later('zero') : new Promise(() => {})) });
      expect(result).toMatchObject({ ok: false, error: { code: 'SANDBOX_TIMEOUT', limit: { name: 'wallMs', value: 300 } }, usage: { toolCalls: 2 } });
      if (!result.ok) expect(result.error.message).toContain("the run's call to tool.call1 outlasted what was left of its wall-clock limit");
      expect(performance.now() - started).toBeLessThan(5_000);

      // Both answering: the run ends with both outcomes, as the worker reports them.
      const both = await custom.run({ runtime: runtimeOf('return null;'), entry: 'main', input: null, limits: { wallMs: 2_000 }, onToolCall: (name) => name });
      expect(both).toMatchObject({ ok: true, value: [{ ok: true, value: 'tool.call0' }, { ok: true, value: 'tool.call1' }] });
    } finally {
      await custom.close();
    }
  });

  it('rejects a backstop grace out of range', () => {
    expect(() => createSandboxPool({ backstopGraceMs: -1 })).toThrow(/backstopGraceMs must be a number of ms/);
    expect(() => createSandboxPool({ backstopGraceMs: Number.NaN })).toThrow(/backstopGraceMs/);
  });
});
