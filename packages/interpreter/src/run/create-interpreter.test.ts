/** End-to-end runs through the real sandbox pool (worker process + isolated-vm). */
import { afterAll, describe, expect, it } from 'vitest';
import { createSandboxPool } from '../sandbox/index.ts';
import type { ToolCatalog } from '../tool-signature.ts';
import { createInterpreter } from './create-interpreter.ts';
import type { AskRequest } from './run-types.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

const wrap = (body: string): string => `command\n${body}\nendcommand\n`;

const catalog: ToolCatalog = {
  get: (name) =>
    name.toLowerCase().replace(/^tool\./, '') === 'test.slow' || name.toLowerCase().replace(/^tool\./, '') === 'test.echo'
      ? { name: `tool.${name.toLowerCase().replace(/^tool\./, '')}`, arguments: [], variadic: true }
      : undefined,
  names: () => ['tool.test.echo', 'tool.test.slow'],
};

describe('createInterpreter (through the sandbox)', () => {
  it('runs async tools in the host and copies their results in', async () => {
    const calls: unknown[] = [];
    const interpreter = createInterpreter({
      pool,
      tools: {
        catalog,
        call: async (name, args) => {
          calls.push({ name, args });
          await new Promise((resolve) => setTimeout(resolve, 5));
          return { got: args };
        },
      },
    });
    const result = await interpreter.run(wrap('  set r = tool.test.echo(1, [2])\n  emit r["got"]'));
    expect(result.ok).toBe(true);
    expect(result.emits).toEqual(['[1, [2]]']);
    expect(calls).toEqual([{ name: 'tool.test.echo', args: [1, [2]] }]);
    expect(result.usage.toolCalls).toBe(1);
    expect(result.output).toBe('[1, [2]]\n');
  });

  it('runs nothing when the static checks fail', async () => {
    let called = false;
    const interpreter = createInterpreter({ pool, tools: { catalog, call: () => (called = true) } });
    const result = await interpreter.run(wrap('  emit "x"\n  call tool.test.missing()'));
    expect(result.ok).toBe(false);
    expect(result.diagnostics.length).toBeGreaterThan(0);
    expect(result.error?.code).toBe(result.diagnostics[0]?.code);
    expect(result.emits).toEqual([]);
    expect(called).toBe(false);
  });

  it('counts time spent in tool calls against the wall clock and keeps the emits', async () => {
    const interpreter = createInterpreter({
      pool,
      tools: { catalog, call: () => new Promise((resolve) => setTimeout(() => resolve(1), 2_000)) },
      limits: { wallMs: 300 },
    });
    const result = await interpreter.run(wrap('  emit "before"\n  set r = tool.test.slow()\n  emit "after"'));
    expect(result.error?.code).toBe('SCRIPT_TIMEOUT');
    expect(result.emits).toEqual(['before']);
  });

  it('stops a CPU-bound loop at the wall clock even with unlimited fuel', async () => {
    const interpreter = createInterpreter({ pool, limits: { fuel: 1e15, loopIterations: 1e15, wallMs: 200 } });
    const result = await interpreter.run(wrap('  emit "spinning"\n  while true\n    set x = 1\n  endwhile'));
    expect(result.error?.code).toBe('SCRIPT_TIMEOUT');
    expect(result.emits).toEqual(['spinning']);
  });

  it('refuses ask in agent mode before anything runs', async () => {
    const interpreter = createInterpreter({ pool });
    const result = await interpreter.run(wrap('  emit "x"\n  ask "helper", "hi" into answer'));
    expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toContain('SCRIPT_ASK_NOT_ALLOWED');
    expect(result.emits).toEqual([]);
  });

  it('stops a memory bomb with SCRIPT_MEMORY_LIMIT and stays usable', async () => {
    const interpreter = createInterpreter({ pool, limits: { memoryMb: 16, fuel: 1e9, wallMs: 20_000, loopIterations: 1e9 } });
    const result = await interpreter.run(
      // Every iteration keeps a fresh copy of a 100,000-item list.
      wrap('  set big[99999] = 1\n  set l = []\n  set i = 0\n  while true\n    set big[0] = i\n    set l[len(l)] = big\n    set i = i + 1\n  endwhile'),
    );
    expect(result.error?.code).toBe('SCRIPT_MEMORY_LIMIT');
    const after = await interpreter.run(wrap('  emit "still alive"'));
    expect(after.emits).toEqual(['still alive']);
  });

  it('leaks no state between runs', async () => {
    const interpreter = createInterpreter({ pool });
    await interpreter.run(wrap('  set secret = "s3cret"'));
    const second = await interpreter.run(wrap('  emit typeof(secret)'));
    expect(second.emits).toEqual(['nil']);
  });

  it('streams emits and whispers to callbacks as they happen', async () => {
    const seen: string[] = [];
    const interpreter = createInterpreter({ pool });
    const result = await interpreter.run(wrap('  emit "one"\n  whisper "notes", "n"\n  emit "two"'), {
      onEmit: (text) => seen.push(`emit:${text}`),
      onWhisper: (target, text) => seen.push(`whisper:${target}:${text}`),
    });
    expect(seen).toEqual(['emit:one', 'whisper:notes:n', 'emit:two']);
    expect(result.whispers).toEqual({ notes: 'n' });
    expect(result.scratchpad).toBe('n\n');
  });

  it('calls the registered ask orchestrator and stores its answer', async () => {
    const requests: Omit<AskRequest, 'signal' | 'interpreter'>[] = [];
    const interpreter = createInterpreter({
      pool,
      orchestrator: {
        runAskLoop: ({ agent, prompt, options }) => {
          requests.push({ agent, prompt, options });
          return `answer from ${agent}`;
        },
      },
    });
    const result = await interpreter.run(wrap('  ask "helper", "hello" with {"max_turns": 2} into answer\n  emit answer'), { mode: 'host' });
    expect(result.emits).toEqual(['answer from helper']);
    expect(requests).toEqual([{ agent: 'helper', prompt: 'hello', options: { max_turns: 2 } }]);
  });

  it('fails ask clearly when no orchestrator is registered', async () => {
    const interpreter = createInterpreter({ pool });
    const result = await interpreter.run(wrap('  ask "helper", "hello" into answer'), { mode: 'host' });
    expect(result.error?.code).toBe('SCRIPT_ASK_UNAVAILABLE');
    expect(result.error?.line).toBe(2);
  });

  it('exposes userdata as a read-only global', async () => {
    const interpreter = createInterpreter({ pool });
    const result = await interpreter.run(wrap('  emit userdata["subject"]'), { userdata: { subject: 'ask' } });
    expect(result.emits).toEqual(['ask']);
  });

  it('refuses tool results that are not JSON data', async () => {
    const interpreter = createInterpreter({ pool, tools: { catalog, call: () => ({ big: BigInt(1) }) } });
    const result = await interpreter.run(wrap('  set r = tool.test.echo()'));
    expect(result.error?.code).toBe('SCRIPT_TOOL_ERROR');
  });

  it('ends the run when the host aborts it', async () => {
    const controller = new AbortController();
    const interpreter = createInterpreter({ pool, limits: { fuel: 1e12, wallMs: 30_000, loopIterations: 1e12 } });
    setTimeout(() => controller.abort(), 100);
    const result = await interpreter.run(wrap('  while true\n    set x = 1\n  endwhile'), { signal: controller.signal });
    expect(result.error?.code).toBe('SCRIPT_ABORTED');
  });
});
