import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandboxPool } from './sandbox-pool.ts';
import type { SandboxPool } from './sandbox-pool-types.ts';
import { SandboxError } from './sandbox-error.ts';
import { ADD_ONE, NO_TOOLS, runtimeOf } from './sandbox-test-runtimes.ts';
import type { ToolCallContext } from './sandbox-types.ts';

let pool: SandboxPool;
beforeAll(async () => {
  pool = createSandboxPool({ workers: 2, limits: { wallMs: 5_000, memoryMb: 64 } });
  await pool.warmup();
});
afterAll(async () => {
  await pool.close();
});

describe('sandbox pool: runs and the bridge', () => {
  it('calls the entry with a copy of the input and returns its JSON value with usage', async () => {
    const result = await pool.run({ runtime: runtimeOf('return { doubled: input.n * 2, echo: input };'), entry: 'main', input: { n: 21, list: [1, 'a', null] }, onToolCall: NO_TOOLS });
    expect(result).toMatchObject({ ok: true, value: { doubled: 42, echo: { n: 21, list: [1, 'a', null] } }, usage: { toolCalls: 0 } });
    expect(result.usage.wallMs).toBeGreaterThan(0);
  });

  it('awaits an entry that returns a promise', async () => {
    const result = await pool.run({ runtime: runtimeOf('return Promise.resolve(input).then((x) => x * 3);'), entry: 'main', input: 5, onToolCall: NO_TOOLS });
    expect(result).toMatchObject({ ok: true, value: 15 });
  });

  it('round-trips tool calls as copies: neither side sees the other mutate its object', async () => {
    const hostObject = { items: [1, 2], nested: { flag: true } };
    let hostArgs: unknown;
    const runtime = runtimeOf(`
      const args = [{ name: 'a' }];
      const outcome = __host.callTool('tool.data.get', args);
      outcome.value.items.push(99);
      outcome.value.nested.flag = false;
      const again = __host.callTool('tool.data.get', []);
      return { first: outcome, again, argsAfter: args };
    `);
    const result = await pool.run({
      runtime,
      entry: 'main',
      input: null,
      onToolCall: async (name, args, context: ToolCallContext) => {
        if (context.index === 0) {
          hostArgs = args;
          (args as Array<{ name: string }>)[0]!.name = 'changed by host';
        }
        return hostObject;
      },
    });
    expect(hostObject).toEqual({ items: [1, 2], nested: { flag: true } });
    expect(hostArgs).toEqual([{ name: 'changed by host' }]);
    expect(result).toMatchObject({
      ok: true,
      value: {
        first: { ok: true, value: { items: [1, 2, 99], nested: { flag: false } } },
        again: { ok: true, value: { items: [1, 2], nested: { flag: true } } },
        argsAfter: [{ name: 'a' }],
      },
      usage: { toolCalls: 2 },
    });
  });

  it('turns a failing tool into a structured outcome the runtime can handle', async () => {
    const runtime = runtimeOf(`
      const failed = __host.callTool('tool.fs.read', ['x']);
      const bad = __host.callTool('tool.bad.result', []);
      const raw = __host.callToolJson('tool.ok', '[1]');
      return { failed, bad, raw };
    `);
    const result = await pool.run({
      runtime,
      entry: 'main',
      input: null,
      onToolCall: (name) => {
        if (name === 'tool.fs.read') throw Object.assign(new Error('no such file'), { code: 'TOOL_NOT_FOUND' });
        if (name === 'tool.bad.result') return () => 1;
        return 'fine';
      },
    });
    expect(result).toMatchObject({
      ok: true,
      value: {
        failed: { ok: false, error: { code: 'TOOL_NOT_FOUND', message: 'tool tool.fs.read failed: no such file' } },
        bad: { ok: false, error: { code: 'TOOL_RESULT_NOT_JSON' } },
        raw: '{"ok":true,"value":"fine"}',
      },
    });
  });

  it('gives every run a fresh context: nothing a run leaves behind is visible to the next', async () => {
    const single = createSandboxPool({ workers: 1 });
    try {
      const polluter = runtimeOf(`
        globalThis.leaked = 42;
        Array.prototype.extra = 'polluted';
        Object.prototype.everywhere = true;
        JSON.parse = () => 'hijacked';
        return 'polluted';
      `);
      const observer = runtimeOf(`
        return {
          leaked: typeof globalThis.leaked,
          extra: typeof [].extra,
          everywhere: typeof ({}).everywhere,
          json: JSON.parse('{"a":1}'),
        };
      `);
      expect(await single.run({ runtime: polluter, entry: 'main', input: null, onToolCall: NO_TOOLS })).toMatchObject({ ok: true, value: 'polluted' });
      const seen = await single.run({ runtime: observer, entry: 'main', input: null, onToolCall: NO_TOOLS });
      expect(seen).toMatchObject({ ok: true, value: { leaked: 'undefined', extra: 'undefined', everywhere: 'undefined', json: { a: 1 } } });
      expect(single.stats().workersStarted).toBe(1);
    } finally {
      await single.close();
    }
  });

  it('gives a fresh context to consecutive runs of the same runtime (the worker prepares it between runs)', async () => {
    const single = createSandboxPool({ workers: 1 });
    try {
      const runtime = runtimeOf(`
        const before = { counter: globalThis.counter ?? null, marked: typeof Object.prototype.marked };
        globalThis.counter = (globalThis.counter ?? 0) + 1;
        Object.prototype.marked = true;
        return before;
      `, 'same-runtime');
      const results = [];
      // Idle gaps let the worker prepare the next context ahead; back-to-back runs make their own.
      for (const gapMs of [20, 0, 0, 20, 20]) {
        results.push(await single.run({ runtime, entry: 'main', input: null, onToolCall: NO_TOOLS }));
        if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
      }
      expect(results.map((result) => result.ok && result.value)).toEqual(Array.from({ length: 5 }, () => ({ counter: null, marked: 'undefined' })));
    } finally {
      await single.close();
    }
  });

  it('starts workers without the host environment (API keys stay in the host)', async () => {
    process.env.ASKLOOP_TEST_SECRET = 'sk-test-not-for-workers';
    const own = createSandboxPool({ workers: 1 });
    try {
      const { execFileSync } = await import('node:child_process');
      await own.warmup();
      const pids = execFileSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' }).trim().split('\n');
      const environments = await Promise.all(pids.map((pid) => readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '')));
      expect(environments.some((environment) => environment.includes('ASKLOOP_SANDBOX_MEMORY_MB'))).toBe(true);
      expect(environments.some((environment) => environment.includes('sk-test-not-for-workers'))).toBe(false);
    } finally {
      delete process.env.ASKLOOP_TEST_SECRET;
      await own.close();
    }
  });

  it('exposes only a frozen __host of plain functions and its checkpoint memory; no isolated-vm object is reachable from globals', async () => {
    const runtime = runtimeOf(`
      const names = Object.getOwnPropertyNames(globalThis);
      return {
        hostKeys: Object.keys(__host).sort(),
        kinds: Object.entries(__host).sort(([a], [b]) => (a < b ? -1 : 1)).map(([, value]) => Object.prototype.toString.call(value)),
        checkpoint: __host.checkpoint.buffer instanceof SharedArrayBuffer && __host.checkpoint.length,
        frozen: Object.isFrozen(__host),
        suspicious: names.filter((name) => /^(_?ivm|Reference|ExternalCopy|Callback|Isolate|Context|Script|require|process|global|\\$\\d)$/.test(name)),
        hostDescriptor: Object.getOwnPropertyDescriptor(globalThis, '__host').writable,
        dollar: typeof $0,
      };
    `);
    const result = await pool.run({ runtime, entry: 'main', input: null, onToolCall: NO_TOOLS });
    expect(result).toMatchObject({
      ok: true,
      value: {
        hostKeys: ['callTool', 'callToolJson', 'checkpoint', 'event', 'eventJson', 'now'],
        kinds: ['[object Function]', '[object Function]', '[object Float64Array]', '[object Function]', '[object Function]', '[object Function]'],
        checkpoint: 2,
        frozen: true,
        suspicious: [],
        hostDescriptor: false,
        dollar: 'undefined',
      },
    });
  });

  it('streams events to onEvent as they happen, in order with tool calls, before the result', async () => {
    const seen: unknown[] = [];
    const runtime = runtimeOf(`
      for (let index = 0; index < 300; index += 1) {
        __host.event(index % 2 === 0 ? 'emit' : 'whisper', { index });
        if (index % 50 === 0) __host.callTool('tool.mark', [index]);
      }
      __host.eventJson('emit', '"last"');
      return 'done';
    `);
    const result = await pool.run({
      runtime,
      entry: 'main',
      input: null,
      onToolCall: (_name, args) => {
        seen.push(`tool ${(args as number[])[0]}`);
        return null;
      },
      onEvent: (kind, payload) => seen.push(`${kind} ${JSON.stringify(payload)}`),
    });
    seen.push('result');
    const expected: unknown[] = [];
    for (let index = 0; index < 300; index += 1) {
      expected.push(`${index % 2 === 0 ? 'emit' : 'whisper'} {"index":${index}}`);
      if (index % 50 === 0) expected.push(`tool ${index}`);
    }
    expected.push('emit "last"', 'result');
    expect(result).toMatchObject({ ok: true, value: 'done' });
    expect(seen).toEqual(expected);
  });

  it('delivers every event of a burst larger than one batch, in order', async () => {
    const seen: number[] = [];
    // 100 events of ~2 KiB: the worker sends them in several batches (it flushes at 64 KiB).
    const runtime = runtimeOf(`
      const filler = 'x'.repeat(2048);
      for (let index = 0; index < 100; index += 1) __host.event('emit', { index, filler });
      return 'done';
    `);
    const result = await pool.run({ runtime, entry: 'main', input: null, onToolCall: NO_TOOLS, onEvent: (_kind, payload) => seen.push((payload as { index: number }).index) });
    expect(result).toMatchObject({ ok: true, value: 'done' });
    expect(seen).toEqual(Array.from({ length: 100 }, (_, index) => index));
  });

  it('delivers the events a run made before the host stopped it', async () => {
    const seen: unknown[] = [];
    const runtime = runtimeOf(`
      __host.event('emit', 'before the loop');
      for (;;) {}
    `);
    const result = await pool.run({ runtime, entry: 'main', input: null, limits: { wallMs: 300 }, onToolCall: NO_TOOLS, onEvent: (kind, payload) => seen.push([kind, payload]) });
    expect(result).toMatchObject({ ok: false, error: { code: 'SANDBOX_TIMEOUT' } });
    expect(seen).toEqual([['emit', 'before the loop']]);
  });

  it('runs two programs at once on two workers', async () => {
    let arrived = 0;
    let releaseBoth: () => void = () => {};
    const bothArrived = new Promise<void>((resolve) => {
      releaseBoth = resolve;
    });
    let busyWhileBothWait = 0;
    const onToolCall = async (): Promise<string> => {
      arrived += 1;
      if (arrived === 2) {
        busyWhileBothWait = pool.stats().busy;
        releaseBoth();
      }
      await bothArrived;
      return 'go';
    };
    const runtime = runtimeOf(`return [input, __host.callTool('tool.barrier', []).value];`);
    const results = await Promise.all([
      pool.run({ runtime, entry: 'main', input: 'first', onToolCall }),
      pool.run({ runtime, entry: 'main', input: 'second', onToolCall }),
    ]);
    expect(results.map((result) => result.ok && result.value)).toEqual([['first', 'go'], ['second', 'go']]);
    expect(busyWhileBothWait).toBe(2);
  });

  it('queues runs beyond the number of workers and runs them all', async () => {
    const results = await Promise.all(Array.from({ length: 7 }, (_, index) => pool.run({ runtime: ADD_ONE, entry: 'main', input: index, onToolCall: NO_TOOLS })));
    expect(results.map((result) => result.ok && result.value)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('picks up a changed source under a new bundle id and keeps serving the old one', async () => {
    const first = await pool.run({ runtime: { id: 'versioned@1', source: 'globalThis.main = () => 1;' }, entry: 'main', input: null, onToolCall: NO_TOOLS });
    const second = await pool.run({ runtime: { id: 'versioned@1', source: 'globalThis.main = () => 2;' }, entry: 'main', input: null, onToolCall: NO_TOOLS });
    expect([first.ok && first.value, second.ok && second.value]).toEqual([1, 2]);
  });
});

describe('sandbox pool: limits and failures as typed results', () => {
  it('stops at the tool-call limit, counting every call', async () => {
    let calls = 0;
    const runtime = runtimeOf(`for (let index = 0; index < 10; index += 1) __host.callTool('tool.count', [index]); return 'unreachable';`);
    const result = await pool.run({
      runtime,
      entry: 'main',
      input: null,
      limits: { maxToolCalls: 3 },
      onToolCall: () => {
        calls += 1;
        return calls;
      },
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toBeInstanceOf(SandboxError);
    expect(result.error.toJSON()).toMatchObject({ code: 'SANDBOX_TOOL_CALL_LIMIT', limit: { name: 'maxToolCalls', value: 3 } });
    expect(result.error.message).toContain('maxToolCalls = 3');
    expect(calls).toBe(3);
    expect(result.usage.toolCalls).toBe(4);
    expect(await pool.run({ runtime: ADD_ONE, entry: 'main', input: 1, onToolCall: NO_TOOLS })).toMatchObject({ ok: true, value: 2 });
  });

  it('times out on the host while a slow async tool call is pending, and aborts the tool', async () => {
    let toolSignal: AbortSignal | undefined;
    const runtime = runtimeOf(`return __host.callTool('tool.slow', []);`);
    const result = await pool.run({
      runtime,
      entry: 'main',
      input: null,
      limits: { wallMs: 300 },
      onToolCall: (_name, _args, { signal }) => {
        toolSignal = signal;
        return new Promise((resolve) => {
          const timer = setTimeout(resolve, 20_000, 'too late');
          signal.addEventListener('abort', () => clearTimeout(timer));
        });
      },
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'SANDBOX_TIMEOUT', limit: { name: 'wallMs', value: 300 } }, usage: { toolCalls: 1 } });
    expect(result.usage.wallMs).toBeGreaterThanOrEqual(299);
    expect(toolSignal?.aborted).toBe(true);
    expect(await pool.run({ runtime: ADD_ONE, entry: 'main', input: 1, onToolCall: NO_TOOLS })).toMatchObject({ ok: true, value: 2 });
  });

  it('aborts a running run on the host signal, and one aborted before it started', async () => {
    const controller = new AbortController();
    const runtime = runtimeOf(`return __host.callTool('tool.wait', []);`);
    const result = await pool.run({
      runtime,
      entry: 'main',
      input: null,
      signal: controller.signal,
      onToolCall: (_name, _args, { signal }) => {
        setImmediate(() => controller.abort());
        return new Promise((resolve) => signal.addEventListener('abort', () => resolve('aborted')));
      },
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'SANDBOX_ABORTED' } });
    const before = await pool.run({ runtime: ADD_ONE, entry: 'main', input: 1, signal: AbortSignal.abort(), onToolCall: NO_TOOLS });
    expect(before).toMatchObject({ ok: false, error: { code: 'SANDBOX_ABORTED' }, usage: { wallMs: 0 } });
    expect(await pool.run({ runtime: ADD_ONE, entry: 'main', input: 1, onToolCall: NO_TOOLS })).toMatchObject({ ok: true, value: 2 });
  });

  it('limits the bytes of events and result', async () => {
    const events = await pool.run({ runtime: runtimeOf(`for (;;) __host.event('emit', 'x'.repeat(100));`), entry: 'main', input: null, limits: { maxOutputBytes: 10_000 }, onToolCall: NO_TOOLS, onEvent: () => {} });
    expect(events).toMatchObject({ ok: false, error: { code: 'SANDBOX_OUTPUT_LIMIT', limit: { name: 'maxOutputBytes', value: 10_000 } } });
    const big = await pool.run({ runtime: runtimeOf(`return 'y'.repeat(20_000);`), entry: 'main', input: null, limits: { maxOutputBytes: 10_000 }, onToolCall: NO_TOOLS });
    expect(big).toMatchObject({ ok: false, error: { code: 'SANDBOX_OUTPUT_LIMIT' } });
  });

  it('reports runtime failures with their own codes', async () => {
    const run = (source: string, entry = 'main') => pool.run({ runtime: { id: `failure:${source}`, source }, entry, input: null, onToolCall: NO_TOOLS });
    expect(await run('globalThis.main = () => 1;', 'missing')).toMatchObject({ ok: false, error: { code: 'SANDBOX_ENTRY_NOT_FOUND' } });
    expect(await run('globalThis.main = () => { throw new TypeError("broken runtime"); };')).toMatchObject({
      ok: false,
      error: { code: 'SANDBOX_RUNTIME_ERROR', message: 'the runtime threw TypeError: broken runtime' },
    });
    expect(await run('throw new Error("at load");')).toMatchObject({ ok: false, error: { code: 'SANDBOX_RUNTIME_ERROR' } });
    expect(await run('globalThis.main = () => ({ big: 1n });')).toMatchObject({ ok: false, error: { code: 'SANDBOX_RESULT_NOT_JSON' } });
    expect(await run('globalThis.main = () => Promise.reject(new RangeError("later"));')).toMatchObject({ ok: false, error: { code: 'SANDBOX_RUNTIME_ERROR' } });
    expect(await run('globalThis.main = () => undefined;')).toMatchObject({ ok: true, value: null });
  });

  it('rejects only for host mistakes', async () => {
    await expect(pool.run({ runtime: ADD_ONE, entry: 'not an identifier', input: 1, onToolCall: NO_TOOLS })).rejects.toMatchObject({ code: 'SANDBOX_INVALID_REQUEST' });
    await expect(pool.run({ runtime: ADD_ONE, entry: 'main', input: { big: 1n }, onToolCall: NO_TOOLS })).rejects.toMatchObject({ code: 'SANDBOX_INVALID_REQUEST' });
    await expect(pool.run({ runtime: ADD_ONE, entry: 'main', input: 1, limits: { memoryMb: 4 }, onToolCall: NO_TOOLS })).rejects.toMatchObject({ code: 'SANDBOX_INVALID_REQUEST' });
    const throwing = pool.run({
      runtime: runtimeOf(`__host.event('emit', 1); return __host.callTool('tool.never', []);`),
      entry: 'main',
      input: null,
      onToolCall: () => new Promise(() => {}),
      onEvent: () => {
        throw new Error('host bug in onEvent');
      },
    });
    await expect(throwing).rejects.toThrow('host bug in onEvent');
    expect(await pool.run({ runtime: ADD_ONE, entry: 'main', input: 1, onToolCall: NO_TOOLS })).toMatchObject({ ok: true, value: 2 });
  });

  it('refuses a signal that is not an AbortSignal and an onEvent that is not a function, and still closes', async () => {
    const own = createSandboxPool({ workers: 1 });
    expect(await own.run({ runtime: ADD_ONE, entry: 'main', input: 1, onToolCall: NO_TOOLS })).toMatchObject({ ok: true, value: 2 });
    for (const bad of [{ signal: {} }, { signal: 'abort' }, { onEvent: 5 }]) {
      await expect(own.run({ runtime: ADD_ONE, entry: 'main', input: 1, onToolCall: NO_TOOLS, ...(bad as object) })).rejects.toMatchObject({ code: 'SANDBOX_INVALID_REQUEST' });
    }
    // The refused run left nothing behind: close() used to throw a TypeError here, leaving the worker running.
    await expect(own.close()).resolves.toBeUndefined();
    expect(own.stats()).toMatchObject({ workers: 0, closed: true });
  });

  it('replaces a worker after maxRunsPerWorker runs, without failing any run', async () => {
    const recycling = createSandboxPool({ workers: 1, maxRunsPerWorker: 2 });
    try {
      const results = [];
      for (let index = 0; index < 5; index += 1) results.push(await recycling.run({ runtime: ADD_ONE, entry: 'main', input: index, onToolCall: NO_TOOLS }));
      expect(results.map((result) => result.ok && result.value)).toEqual([1, 2, 3, 4, 5]);
      expect(recycling.stats()).toMatchObject({ workersStarted: 3, workerDeaths: 0 });
    } finally {
      await recycling.close();
    }
  });

  it('does not keep the host process alive once idle', async () => {
    const moduleUrl = new URL('./index.ts', import.meta.url).href;
    const script = [
      `import { createSandboxPool } from ${JSON.stringify(moduleUrl)};`,
      'const pool = createSandboxPool({ workers: 2 });',
      "const result = await pool.run({ runtime: { id: 'idle', source: 'globalThis.main = () => 7;' }, entry: 'main', input: null, onToolCall: () => null });",
      'console.log(JSON.stringify(result.ok && result.value));',
      '// no pool.close(): the process must still exit on its own',
    ].join('\n');
    const { stdout } = await promisify(execFile)(process.execPath, ['--no-node-snapshot', '--conditions=@askloop/source', '--input-type=module', '--eval', script], { timeout: 20_000 });
    expect(stdout.trim()).toBe('7');
  });

  it('rejects with SANDBOX_WORKER_START_FAILED when workers cannot start, without respawning in a loop', async () => {
    const broken = createSandboxPool({ workers: 1, workerEntry: { path: '/nonexistent/worker-main.js', execArgv: [] } });
    try {
      await expect(broken.run({ runtime: ADD_ONE, entry: 'main', input: 1, onToolCall: NO_TOOLS })).rejects.toMatchObject({ code: 'SANDBOX_WORKER_START_FAILED' });
      expect(broken.stats()).toMatchObject({ workersStarted: 3, workers: 0 });
    } finally {
      await broken.close();
    }
  });

  it('fails runs in flight when closed, then refuses new ones', async () => {
    const own = createSandboxPool({ workers: 1 });
    const running = own.run({ runtime: runtimeOf(`return __host.callTool('tool.wait', []);`), entry: 'main', input: null, onToolCall: () => new Promise(() => {}) });
    const queued = own.run({ runtime: ADD_ONE, entry: 'main', input: 1, onToolCall: NO_TOOLS });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await own.close();
    // Each says what to do, not only what happened.
    const fix = 'create a new pool (createSandboxPool()) for more runs, and close a pool only once the runs given to it have finished (await them before close())';
    expect(await running).toMatchObject({ ok: false, error: { code: 'SANDBOX_POOL_CLOSED', message: `the sandbox pool was closed during the run: ${fix}` } });
    expect(await queued).toMatchObject({ ok: false, error: { code: 'SANDBOX_POOL_CLOSED', message: `the sandbox pool was closed during the run: ${fix}` } });
    await expect(own.run({ runtime: ADD_ONE, entry: 'main', input: 1, onToolCall: NO_TOOLS })).rejects.toMatchObject({ code: 'SANDBOX_POOL_CLOSED', message: `the sandbox pool is closed: ${fix}` });
    await expect(own.warmup()).rejects.toMatchObject({ code: 'SANDBOX_POOL_CLOSED', message: `the sandbox pool is closed: ${fix}` });
    expect(own.stats()).toMatchObject({ workers: 0, closed: true });
  });
});

describe('sandbox pool: messages a run costs', () => {
  it('sends no cancel to a worker for a run it finished by itself (only for one the host settled first)', async () => {
    const { existsSync, readFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { fileURLToPath } = await import('node:url');
    const file = join(tmpdir(), `askloop-cancels-${process.pid}`);
    rmSync(file, { force: true });
    const counting = createSandboxPool({
      workers: 1,
      limits: { wallMs: 5_000 },
      workerEntry: { path: fileURLToPath(new URL('./test-fixtures/cancel-counting-worker.ts', import.meta.url)), execArgv: ['--conditions=@askloop/source'] },
    });
    try {
      for (let index = 0; index < 3; index += 1) expect(await counting.run({ runtime: ADD_ONE, entry: 'main', input: index, onToolCall: NO_TOOLS })).toMatchObject({ ok: true, value: index + 1 });
      // A tool call that fails the host's wall clock: the host settles first and must cancel the run in the worker.
      const stopped = await counting.run({
        runtime: runtimeOf("__host.callTool('tool.slow', []); return 1;"),
        entry: 'main',
        input: null,
        limits: { wallMs: 200 },
        onToolCall: () => new Promise(() => {}),
      });
      expect(stopped.ok).toBe(false);
      expect(await counting.run({ runtime: ADD_ONE, entry: 'main', input: 9, onToolCall: NO_TOOLS })).toMatchObject({ ok: true, value: 10 });
      expect(existsSync(file) ? readFileSync(file, 'utf8') : '').toBe('cancel\n');
    } finally {
      await counting.close();
      rmSync(file, { force: true });
    }
  });
});
