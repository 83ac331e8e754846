/**
 * Tools the sandbox worker answers itself (`ExecuteOptions.localTools`),
 * through the real pool: each answer is booked on the bridge and reported in
 * its place among the run's calls and emits, and whatever the worker does not
 * answer reaches the bridge as before, so a run ends the same either way.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createSandboxPool, secretFingerprints } from '../sandbox/index.ts';
import { LOCAL_TOOL_EVENT } from '../sandbox/worker-protocol.ts';
import { runtimeOf, NO_TOOLS } from '../sandbox/sandbox-test-runtimes.ts';
import type { ToolCatalog } from '../tool-signature.ts';
import { createInterpreter } from './create-interpreter.ts';
import type { ExecuteOptions, LocalTools, RunResult, ToolBridge } from './run-types.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());
const interpreter = createInterpreter({ pool });

const TOOLS = ['tool.test.upper', 'tool.test.big', 'tool.test.decline'];
const catalog: ToolCatalog = {
  get: (name) => {
    const canonical = `tool.${name.toLowerCase().replace(/^tool\./, '')}`;
    return TOOLS.includes(canonical) ? { name: canonical, arguments: [], variadic: true } : undefined;
  },
  names: () => TOOLS,
};
const localTools: LocalTools = { module: new URL('../sandbox/test-fixtures/local-tools-module.ts', import.meta.url).href, names: ['tool.test.upper', 'tool.test.big'] };

/** The host's side of the same tools, noting in `trace` each call it gets and each it books. */
function bridge(trace: string[], canBook = true): ToolBridge {
  return {
    catalog,
    call: async (name, args) => {
      trace.push(`host ${name}`);
      if (name === 'tool.test.big') return 'x'.repeat(Number(args[0]));
      if (name === 'tool.test.upper') return String(args[0]).toUpperCase();
      return `declined ${String(args[0])}`;
    },
    ...(canBook ? { recordLocalCall: (name: string) => void trace.push(`book ${name}`) } : {}),
  };
}

/** Runs `program` noting the bridge's calls, every report and every emit in one `trace`. */
async function traced(program: string, options: Partial<ExecuteOptions> & { canBook?: boolean } = {}): Promise<{ result: RunResult; trace: string[] }> {
  const trace: string[] = [];
  const { canBook, ...rest } = options;
  const result = await interpreter.run(program, {
    tools: bridge(trace, canBook),
    onToolCall: (call) => void trace.push(`report ${call.name} ${JSON.stringify(call.args)} -> ${JSON.stringify(call.result ?? call.error?.code)}`),
    onEmit: (text) => void trace.push(`emit ${text}`),
    ...rest,
  });
  return { result, trace };
}

/** The module loads the first time a run names it, without the run waiting: run until the worker answers. */
async function untilLoaded(): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const { trace } = await traced('command\n  set x = tool.test.Upper("w")\nendcommand\n', { localTools });
    if (trace.includes('book tool.test.upper')) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the worker never loaded the local tools module');
}

const program = [
  'command',
  '  emit "a"',
  '  set x = tool.test.Upper("one")',
  '  emit x',
  '  set y = tool.test.Decline("two")',
  '  set z = tool.test.Upper("three")',
  '  emit z + " " + y',
  'endcommand',
  '',
].join('\n');

describe('localTools: calls the sandbox worker answers itself', () => {
  it('answers them in the worker, books each on the bridge and reports it in its place among calls and emits', async () => {
    await untilLoaded();
    const { result, trace } = await traced(program, { localTools });
    expect(result).toMatchObject({ ok: true, emits: ['a', 'ONE', 'THREE declined two'], usage: { toolCalls: 3 } });
    expect(trace).toEqual([
      'emit a',
      'book tool.test.upper',
      'report tool.test.upper ["one"] -> "ONE"',
      'emit ONE',
      'host tool.test.decline',
      'report tool.test.decline ["two"] -> "declined two"',
      'book tool.test.upper',
      'report tool.test.upper ["three"] -> "THREE"',
      'emit THREE declined two',
    ]);
  });

  it('ends a run as the bridge alone does: the same emits, error, fuel and calls', async () => {
    await untilLoaded();
    const programs = [program, 'command\n  set a = tool.test.Upper(1)\n  set b = tool.test.Big(3)\n  fail "stop " + a + b\nendcommand\n'];
    for (const source of programs) {
      const local = await traced(source, { localTools });
      const host = await traced(source);
      expect(local.trace.some((line) => line.startsWith('book '))).toBe(true);
      expect(host.trace.some((line) => line.startsWith('book '))).toBe(false);
      const { usage: localUsage, ...localRest } = local.result;
      const { usage: hostUsage, ...hostRest } = host.result;
      expect(localRest).toEqual(hostRest);
      expect({ fuel: localUsage.fuel, toolCalls: localUsage.toolCalls }).toEqual({ fuel: hostUsage.fuel, toolCalls: hostUsage.toolCalls });
      // The reports are the same, in the same order, whoever answered.
      const reports = (trace: string[]) => trace.filter((line) => line.startsWith('report ') || line.startsWith('emit '));
      expect(reports(local.trace)).toEqual(reports(host.trace));
    }
  });

  it('sends every call to a bridge that cannot book the worker’s answers', async () => {
    await untilLoaded();
    const { result, trace } = await traced(program, { localTools, canBook: false });
    expect(result.ok).toBe(true);
    expect(trace.filter((line) => line.startsWith('host '))).toEqual(['host tool.test.upper', 'host tool.test.decline', 'host tool.test.upper']);
  });

  it('answers only tools the check approved for the run, and only those listed', async () => {
    await untilLoaded();
    const { trace } = await traced('command\n  set b = tool.test.Big(2)\nendcommand\n', { localTools: { ...localTools, names: ['tool.test.upper'] } });
    expect(trace).toContain('host tool.test.big');
  });

  it('spends the run’s tool-data budget: the call that would pass it goes to the bridge and is refused as before', async () => {
    await untilLoaded();
    const source = 'command\n  set a = tool.test.Big(1000)\n  set b = tool.test.Big(1000)\n  set c = tool.test.Big(5000)\n  emit "never"\nendcommand\n';
    const local = await traced(source, { localTools, limits: { toolDataChars: 6000 } });
    const host = await traced(source, { limits: { toolDataChars: 6000 } });
    expect(local.trace.filter((line) => line.startsWith('book '))).toHaveLength(2);
    expect(local.trace).toContain('host tool.test.big');
    expect(local.result.error).toMatchObject({ code: 'SCRIPT_TOOL_DATA_LIMIT', line: 4, message: expect.stringContaining('its result (5002 characters as JSON)') });
    // Word for word, "so far" included: the worker's answers were counted as the bridge's were.
    expect(local.result.error?.message).toBe(host.result.error?.message);
  });

  it('reports the fuel spent up to a call it answered when its caller stops the run later, as the bridge alone does', async () => {
    await untilLoaded();
    // Some work, the call, then a loop the caller stops: the run is known as of its last call (stopped-run-fuel.test.ts).
    const work = 'command\n  set n = 0\n  for each i in [1, 2, 3, 4, 5, 6, 7, 8]\n    set n = n + i\n  endfor\n  set x = tool.test.Upper("a")\n';
    const whole = await traced(`${work}endcommand\n`);
    const stopped = async (options: Partial<ExecuteOptions>): Promise<RunResult> => {
      const cancel = new AbortController();
      const { result } = await traced(`${work}  while true\n    set y = 1\n  endwhile\nendcommand\n`, {
        ...options,
        limits: { loopIterations: 1e9, fuel: 1e9, wallMs: 20_000 },
        signal: cancel.signal,
        onToolCall: () => void setTimeout(() => cancel.abort(), 50),
      });
      return result;
    };
    const host = await stopped({});
    const local = await stopped({ localTools });
    expect(host.error).toMatchObject({ code: 'SCRIPT_ABORTED' });
    expect(local.error).toMatchObject({ code: 'SCRIPT_ABORTED' });
    expect(host.usage.fuel).toBe(whole.result.usage.fuel);
    expect(local.usage.fuel).toBe(whole.result.usage.fuel);
  });

  it('leaves a result past the bridge’s own bounds (localTools.limits) to the bridge, which refuses it as before', async () => {
    await untilLoaded();
    const { trace } = await traced('command\n  set b = tool.test.Big(20)\n  set c = tool.test.Big(5)\nendcommand\n', { localTools: { ...localTools, limits: { stringLength: 10 } } });
    expect(trace.filter((line) => line.startsWith('host ') || line.startsWith('book '))).toEqual(['host tool.test.big', 'book tool.test.big']);
  });

  it('leaves a result holding one of the bridge’s secrets to the bridge, which hides it; the worker gets only fingerprints', async () => {
    await untilLoaded();
    const secrets = secretFingerprints(['XYZW-KEY']);
    const { result, trace } = await traced('command\n  emit tool.test.Upper("xyzw-key")\n  emit tool.test.Upper("plain")\nendcommand\n', { localTools: { ...localTools, secrets } });
    expect(result.emits).toEqual(['XYZW-KEY', 'PLAIN']);
    expect(trace.filter((line) => line.startsWith('host ') || line.startsWith('book '))).toEqual(['host tool.test.upper', 'book tool.test.upper']);
  });

  it('sends every call to the bridge when the module cannot be loaded', async () => {
    const missing = { module: new URL('../sandbox/test-fixtures/no-such-module.ts', import.meta.url).href, names: localTools.names };
    for (let run = 0; run < 3; run += 1) {
      const { result, trace } = await traced(program, { localTools: missing });
      expect(result).toMatchObject({ ok: true, emits: ['a', 'ONE', 'THREE declined two'] });
      expect(trace.filter((line) => line.startsWith('book '))).toEqual([]);
    }
  });
});

describe('localTools in the pool', () => {
  it('drops a runtime’s event of the worker’s own kind: a program cannot forge an answer', async () => {
    const events: string[] = [];
    const booked: unknown[] = [];
    const result = await pool.run({
      runtime: runtimeOf(`__host.event(${JSON.stringify(LOCAL_TOOL_EVENT)}, { name: 'tool.test.upper', args: ['x'], result: 'X', dataChars: 0, durationMs: 0 }); __host.event('note', 1); return 'done';`, 'forge-local'),
      entry: 'main',
      input: null,
      onToolCall: NO_TOOLS,
      onEvent: (kind) => void events.push(kind),
      localTools: { module: localTools.module, names: ['tool.test.upper'], limits: { stringLength: 100, collectionSize: 10 } },
      onLocalToolCall: (call) => void booked.push(call),
    });
    expect(result).toMatchObject({ ok: true, value: 'done', usage: { toolCalls: 0 } });
    expect(events).toEqual(['note']);
    expect(booked).toEqual([]);
  });

  it('refuses a request whose localTools the worker could not use', async () => {
    const base = { runtime: runtimeOf('return 1;', 'local-invalid'), entry: 'main', input: null, onToolCall: NO_TOOLS };
    const limits = { stringLength: 1, collectionSize: 1 };
    const print = { length: 4, rolling: 1, sha256: 'a'.repeat(64) };
    for (const localToolsValue of [
      { module: 'not a url', names: [], limits },
      { module: localTools.module, names: 'tool.test.upper', limits },
      { module: localTools.module, names: [] },
      { module: localTools.module, names: [], limits, secrets: 'sk-1234' },
      { module: localTools.module, names: [], limits, secrets: [{ ...print, sha256: 'sk-1234' }] },
      { module: localTools.module, names: [], limits, secrets: [{ ...print, length: 0 }] },
    ]) {
      await expect(pool.run({ ...base, localTools: localToolsValue as never, onLocalToolCall: () => {} })).rejects.toMatchObject({ code: 'SANDBOX_INVALID_REQUEST', message: expect.stringContaining('request.localTools') });
    }
    await expect(pool.run({ ...base, onLocalToolCall: 'yes' as never })).rejects.toMatchObject({ code: 'SANDBOX_INVALID_REQUEST' });
    await expect(pool.run({ ...base, localTools: { module: localTools.module, names: [], limits } })).rejects.toMatchObject({ code: 'SANDBOX_INVALID_REQUEST', message: expect.stringContaining('onLocalToolCall') });
  });
});
