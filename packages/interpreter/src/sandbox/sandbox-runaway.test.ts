/**
 * The host survives runaways (issue 4): real programs, real isolates, real
 * worker processes. Several of these abort a whole Node process on Node 24 +
 * isolated-vm 7 whatever the isolate's `memoryLimit` (a growing Map, an object
 * with ever more keys) or grow far past it (`new Array(2**31).fill(0)`, arrays
 * of doubles); each must fail only its own run with a typed error, after which
 * the pool runs a normal program.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxPool } from './sandbox-pool.ts';
import type { SandboxPool } from './sandbox-pool-types.ts';
import type { SandboxErrorCode, SandboxLimitName } from './sandbox-error.ts';
import { ADD_ONE, NO_TOOLS, runtimeOf } from './sandbox-test-runtimes.ts';

let pool: SandboxPool;
beforeAll(async () => {
  pool = createSandboxPool({ workers: 2, limits: { memoryMb: 64, wallMs: 10_000 } });
  await pool.warmup();
});
afterAll(async () => {
  await pool.close();
});

interface Runaway {
  readonly name: string;
  readonly body: string;
  readonly code: SandboxErrorCode;
  readonly limit?: SandboxLimitName;
  readonly limits?: { readonly wallMs?: number; readonly maxOutputBytes?: number };
}

const RUNAWAYS: readonly Runaway[] = [
  { name: 'an infinite loop', body: 'for (;;) {}', code: 'SANDBOX_TIMEOUT', limit: 'wallMs', limits: { wallMs: 500 } },
  { name: 'a promise that never settles', body: 'return new Promise(() => {});', code: 'SANDBOX_TIMEOUT', limit: 'wallMs', limits: { wallMs: 500 } },
  { name: 'a growing Map', body: 'const map = new Map(); for (let index = 0; ; index += 1) map.set(index, { index });', code: 'SANDBOX_MEMORY', limit: 'memoryMb' },
  { name: 'an object with ever more keys', body: 'const object = {}; for (let index = 0; ; index += 1) object["key" + index] = index;', code: 'SANDBOX_MEMORY', limit: 'memoryMb' },
  { name: 'new Array(2**31).fill(0)', body: 'return new Array(2 ** 31).fill(0).length;', code: 'SANDBOX_MEMORY', limit: 'memoryMb' },
  { name: 'arrays of doubles (outgrows memoryLimit)', body: 'const all = []; for (;;) all.push(new Array(1000).fill(1.5));', code: 'SANDBOX_MEMORY', limit: 'memoryMb' },
  { name: 'objects pushed to an array', body: 'const all = []; for (;;) all.push({ value: Math.random() });', code: 'SANDBOX_MEMORY', limit: 'memoryMb' },
  { name: 'a doubling string (rope)', body: 'let text = "x"; for (;;) text += text;', code: 'SANDBOX_MEMORY', limit: 'memoryMb' },
  { name: 'a doubling string, flattened each time', body: 'let text = "x"; for (;;) { text = text + text; text.indexOf("y"); }', code: 'SANDBOX_MEMORY', limit: 'memoryMb' },
  { name: 'deep recursion', body: 'const down = (depth) => down(depth + 1) + 1; return down(0);', code: 'SANDBOX_STACK_OVERFLOW' },
  { name: 'an endless stream of events', body: 'for (;;) __host.event("emit", "runaway output");', code: 'SANDBOX_OUTPUT_LIMIT', limit: 'maxOutputBytes', limits: { maxOutputBytes: 64 * 1024 } },
  { name: 'endless tool calls', body: 'for (;;) __host.callTool("tool.noop", []);', code: 'SANDBOX_TOOL_CALL_LIMIT', limit: 'maxToolCalls' },
];

describe('sandbox pool: the host survives runaway programs', () => {
  for (const runaway of RUNAWAYS) {
    it(`${runaway.name} → ${runaway.code}, then a normal program runs`, async () => {
      const result = await pool.run({
        runtime: runtimeOf(runaway.body, `runaway:${runaway.name}`),
        entry: 'main',
        input: null,
        limits: runaway.limits ?? {},
        onToolCall: () => null,
        onEvent: () => {},
      });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.code).toBe(runaway.code);
      if (runaway.limit !== undefined) expect(result.error.limit?.name).toBe(runaway.limit);
      const after = await pool.run({ runtime: ADD_ONE, entry: 'main', input: 41, onToolCall: NO_TOOLS });
      expect(after).toMatchObject({ ok: true, value: 42 });
    });
  }

  it('replaced the workers that died and still runs programs on both', async () => {
    const stats = pool.stats();
    // A growing Map and ever more keys abort their worker process on Node 24 with isolated-vm 7.
    expect(stats.workerDeaths).toBeGreaterThanOrEqual(2);
    expect(stats.workersStarted).toBeGreaterThan(2);
    const results = await Promise.all([1, 2, 3, 4].map((input) => pool.run({ runtime: ADD_ONE, entry: 'main', input, onToolCall: NO_TOOLS })));
    expect(results.map((result) => result.ok && result.value)).toEqual([2, 3, 4, 5]);
    expect(pool.stats().workers).toBe(2);
  });

  it('fails a run whose worker is killed from outside with SANDBOX_WORKER_DIED', async () => {
    const pids: number[] = [];
    const result = await pool.run({
      runtime: runtimeOf(`return __host.callTool('tool.suicide', []);`, 'killed'),
      entry: 'main',
      input: null,
      onToolCall: async () => {
        // The pool's workers are this test process's only children: kill them all, the busy one included.
        const { execFileSync } = await import('node:child_process');
        const children = execFileSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' }).trim().split('\n').map(Number);
        pids.push(...children);
        for (const pid of children) process.kill(pid, 'SIGKILL');
        return new Promise(() => {});
      },
    });
    expect(pids.length).toBeGreaterThan(0);
    expect(result).toMatchObject({ ok: false, error: { code: 'SANDBOX_WORKER_DIED' } });
    expect(result.ok || result.error.message).toMatch(/SIGKILL/);
    expect(await pool.run({ runtime: ADD_ONE, entry: 'main', input: 1, onToolCall: NO_TOOLS })).toMatchObject({ ok: true, value: 2 });
  });
});
