/** End-to-end runs through the real sandbox pool (worker process + isolated-vm). */
import { AsyncLocalStorage } from 'node:async_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandboxPool } from '../sandbox/index.ts';
import type { ToolCatalog } from '../tool-signature.ts';
import { MAX_ASKS_AND_PROMPTS } from '../runtime/index.ts';
import { createInterpreter } from './create-interpreter.ts';
import type { AskRequest, ToolBridge } from './run-types.ts';

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
  it("runs each tool call in the async context of the run's caller (its AsyncLocalStorage), also for runs side by side", async () => {
    const caller = new AsyncLocalStorage<string>();
    const interpreter = createInterpreter({ pool });
    const tools: ToolBridge = {
      catalog,
      call: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return caller.getStore() ?? 'no context';
      },
    };
    const program = wrap('  emit tool.test.echo()\n  emit tool.test.echo()');
    const [a, b] = await Promise.all([caller.run('step A', () => interpreter.run(program, { tools })), caller.run('step B', () => interpreter.run(program, { tools }))]);
    expect(a?.emits).toEqual(['step A', 'step A']);
    expect(b?.emits).toEqual(['step B', 'step B']);
  });

  it("reports the line of the emit statement behind each emit, from the sandbox, when the run fails too", async () => {
    const interpreter = createInterpreter({ pool });
    const ok = await interpreter.run(wrap('  emit "a"\n  set x = 1\n  emit "b"'));
    expect(ok.emitLines).toEqual([2, 4]);
    const failed = await interpreter.run(wrap('  emit "before"\n  fail "stop"'));
    expect(failed.ok).toBe(false);
    expect(failed.emits).toEqual(['before']);
    expect(failed.emitLines).toEqual([2]);
  });

  it('runs async tools in the host and copies their results in', async () => {
    const calls: unknown[] = [];
    const interpreter = createInterpreter({ pool });
    const tools: ToolBridge = {
      catalog,
      call: async (name, args) => {
        calls.push({ name, args });
        await new Promise((resolve) => setTimeout(resolve, 5));
        return { got: args };
      },
    };
    const result = await interpreter.run(wrap('  set r = tool.test.echo(1, [2])\n  emit r["got"]'), { tools });
    expect(result.ok).toBe(true);
    expect(result.emits).toEqual(['[1, [2]]']);
    expect(calls).toEqual([{ name: 'tool.test.echo', args: [1, [2]] }]);
    expect(result.usage.toolCalls).toBe(1);
    expect(result.output).toBe('[1, [2]]\n');
  });

  it('runs nothing when the static checks fail', async () => {
    let called = false;
    const interpreter = createInterpreter({ pool });
    const result = await interpreter.run(wrap('  emit "x"\n  call tool.test.missing()'), { tools: { catalog, call: () => (called = true) } });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.length).toBeGreaterThan(0);
    expect(result.error?.code).toBe(result.diagnostics[0]?.code);
    expect(result.emits).toEqual([]);
    expect(called).toBe(false);
  });

  it('counts time spent in tool calls against the wall clock and keeps the emits', async () => {
    const interpreter = createInterpreter({ pool, limits: { wallMs: 300 } });
    const tools: ToolBridge = { catalog, call: () => new Promise((resolve) => setTimeout(() => resolve(1), 2_000)) };
    const result = await interpreter.run(wrap('  emit "before"\n  set r = tool.test.slow()\n  emit "after"'), { tools });
    expect(result.error?.code).toBe('SCRIPT_TIMEOUT');
    // The run's own limit, as the evaluator words it — not the sandbox backstop's 550 ms (limit + grace) that ended it.
    expect(result.error?.message).toBe('The program ran longer than 300 ms (limit: wallMs). It was stopped at or after line 3.');
    expect(result.emits).toEqual(['before']);
  });

  it('stops a CPU-bound loop at the wall clock even with unlimited fuel', async () => {
    const interpreter = createInterpreter({ pool, limits: { fuel: 1e15, loopIterations: 1e15, wallMs: 200 } });
    const result = await interpreter.run(wrap('  emit "spinning"\n  while true\n    set x = 1\n  endwhile'));
    expect(result.error).toMatchObject({ code: 'SCRIPT_TIMEOUT', kind: 'timeout' });
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
    expect(result.error).toMatchObject({ code: 'SCRIPT_MEMORY_LIMIT', kind: 'quota' });
    // The limit is named once, as every quota's is.
    expect(result.error?.message).toMatch(/\(limit: memoryMb\)(; it was stopped at or after line \d+\.)?$/);
    expect(result.error?.message).not.toContain('limit memoryMb =');
    const after = await interpreter.run(wrap('  emit "still alive"'));
    expect(after.emits).toEqual(['still alive']);
  });

  it('leaks no state between runs', async () => {
    const interpreter = createInterpreter({ pool });
    await interpreter.run(wrap('  set secret = "s3cret"'));
    // The second program sets its own `secret` after reading it: the read sees the fresh, nil slot.
    const second = await interpreter.run(wrap('  emit typeof(secret)\n  set secret = "mine"'));
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

  it('stops the ask or promptuser past MAX_ASKS_AND_PROMPTS with a typed error on its line, before the sandbox backstop', async () => {
    let asks = 0;
    let prompts = 0;
    const interpreter = createInterpreter({
      pool,
      limits: { toolCalls: 5 },
      orchestrator: {
        runAskLoop: () => {
          asks += 1;
          return 'ok';
        },
      },
      promptUser: () => {
        prompts += 1;
        return 'ada';
      },
    });
    const loop = (statement: string) => wrap(`  set i = 0\n  while true\n    ${statement}\n    set i = i + 1\n  endwhile`);
    const asked = await interpreter.run(loop('ask "helper", "hi" into answer'), { mode: 'host' });
    expect(asked.error).toMatchObject({ code: 'SCRIPT_TOOL_CALL_LIMIT', kind: 'quota', line: 4 });
    expect(asked.error?.message).toBe(`The program made more than ${MAX_ASKS_AND_PROMPTS} ask and promptuser statements in one run (this ask is one too many); spread them over more turns (a fixed bound).`);
    expect(asks).toBe(MAX_ASKS_AND_PROMPTS);
    // promptuser counts in the same bound: 600 asks, then the 401st promptuser is refused.
    asks = 0;
    const mixed = await interpreter.run(wrap(`  set i = 0\n  while i < 600\n    ask "helper", "hi" into answer\n    set i = i + 1\n  endwhile\n  while true\n    promptuser "name?" into n\n  endwhile`), { mode: 'host' });
    expect(mixed.error).toMatchObject({ code: 'SCRIPT_TOOL_CALL_LIMIT', line: 8, message: expect.stringContaining('this promptuser is one too many') });
    expect([asks, prompts]).toEqual([600, MAX_ASKS_AND_PROMPTS - 600]);
  }, 60_000);

  it('fails ask clearly when no orchestrator is registered', async () => {
    const interpreter = createInterpreter({ pool });
    const result = await interpreter.run(wrap('  ask "helper", "hello" into answer'), { mode: 'host' });
    expect(result.error?.code).toBe('SCRIPT_ASK_UNAVAILABLE');
    expect(result.error?.line).toBe(2);
    // Says what is missing in the reader's terms, without the internal call name or "orchestrator".
    expect(result.error?.message).toBe("ask 'helper': this host runs no other agents, so ask is unavailable here; in the ask loop an agent may ask the agents its asks list names.");
  });

  it("names a failing tool once: a tool host's message that begins with the tool's name is not wrapped in it twice more", async () => {
    const interpreter = createInterpreter({ pool });
    const failing = () => {
      throw Object.assign(new Error('tool.test.Echo: text is not JSON (pack test)'), { code: 'TOOL_VALUE_INVALID' });
    };
    const named = await interpreter.run(wrap('  set r = tool.test.echo()'), { tools: { catalog, call: failing } });
    expect(named.error).toMatchObject({ code: 'SCRIPT_TOOL_ARGUMENTS', message: '[TOOL_VALUE_INVALID] tool.test.Echo: text is not JSON (pack test)' });
    // A message that does not name the tool gets its name, once.
    const bare = await interpreter.run(wrap('  set r = tool.test.echo()'), { tools: { catalog, call: () => Promise.reject(new Error('disk full')) } });
    expect(bare.error).toMatchObject({ code: 'SCRIPT_TOOL_ERROR', message: "tool 'tool.test.echo': disk full" });
  });

  it('exposes userdata as a read-only global', async () => {
    const interpreter = createInterpreter({ pool });
    const result = await interpreter.run(wrap('  emit userdata["subject"]'), { userdata: { subject: 'ask' } });
    expect(result.emits).toEqual(['ask']);
  });

  // Walkthrough (compatibility): every tool failure read 4 or 21, not the reference's number of the tool's own error.
  it("keeps a tool error's reference number as the script error's numeric code", async () => {
    const interpreter = createInterpreter({ pool });
    const failing = (code: string, referenceCode: number) => ({ catalog, call: () => Promise.reject(Object.assign(new Error(`tool.test.echo: ${code.toLowerCase()}`), { code, referenceCode })) });
    const typed = await interpreter.run(wrap('  set r = tool.test.echo()'), { tools: failing('TOOL_VALUE_TYPE', 7) });
    expect(typed.error).toMatchObject({ code: 'SCRIPT_TOOL_ARGUMENTS', numericCode: 7, message: expect.stringContaining('[TOOL_VALUE_TYPE]') });
    const missing = await interpreter.run(wrap('  set r = tool.test.echo()'), { tools: failing('FS_NOT_FOUND', 22) });
    expect(missing.error).toMatchObject({ code: 'SCRIPT_TOOL_ERROR', numericCode: 22 });
    // A denial keeps its own script code and number; a failure without a reference number, its script code's.
    const denied = await interpreter.run(wrap('  set r = tool.test.echo()'), { tools: failing('FS_ESCAPE', 1003) });
    expect(denied.error).toMatchObject({ code: 'SCRIPT_TOOL_DENIED' });
    const bare = await interpreter.run(wrap('  set r = tool.test.echo()'), { tools: { catalog, call: () => Promise.reject(new Error('disk full')) } });
    expect(bare.error).toMatchObject({ code: 'SCRIPT_TOOL_ERROR', numericCode: 21 });
    // A number that is no reference code (0, negative) is not taken.
    const bogus = await interpreter.run(wrap('  set r = tool.test.echo()'), { tools: failing('TOOL_FAILED', -5) });
    expect(bogus.error).toMatchObject({ code: 'SCRIPT_TOOL_ERROR', numericCode: 21 });
  });

  it("carries a denial's grant out of the sandbox as data, beside the message, through the program's functions too", async () => {
    const interpreter = createInterpreter({ pool });
    const grant = 'net:read:127.0.0.1:8080';
    const deny = () => Promise.reject(Object.assign(new Error('tool.test.Echo: refused (the message a host may word as it likes)'), { code: 'HTTP_ADDRESS_DENIED', referenceCode: 1003, grant }));
    const result = await interpreter.run(wrap('  set r = tool.test.echo()'), { tools: { catalog, call: deny } });
    expect(result.error).toMatchObject({ code: 'SCRIPT_TOOL_DENIED', kind: 'permission', grant: { capability: grant, code: 'HTTP_ADDRESS_DENIED' } });
    const nested = await interpreter.run(wrap('  call fetch()'), { mode: 'host', libraries: ['func fetch() means\n  set r = tool.test.echo()\nendfunc\n'], tools: { catalog, call: deny } });
    expect(nested.error, JSON.stringify(nested.error)).toMatchObject({ frames: [expect.anything(), expect.anything()] });
    expect(nested.error?.grant).toEqual({ capability: grant, code: 'HTTP_ADDRESS_DENIED' });
    // The call the run reports carries it too (what a host records of the call).
    const calls: unknown[] = [];
    await interpreter.run(wrap('  set r = tool.test.echo()'), { tools: { catalog, call: deny }, onToolCall: (call) => void calls.push(call.error?.grant) });
    expect(calls).toEqual([{ capability: grant, code: 'HTTP_ADDRESS_DENIED' }]);
    // Only a denial has one, and only as two strings.
    const failed = await interpreter.run(wrap('  set r = tool.test.echo()'), { tools: { catalog, call: () => Promise.reject(Object.assign(new Error('disk full'), { code: 'TOOL_FAILED', grant })) } });
    expect(failed.error?.code).toBe('SCRIPT_TOOL_ERROR');
    expect(failed.error).not.toHaveProperty('grant');
    const odd = await interpreter.run(wrap('  set r = tool.test.echo()'), { tools: { catalog, call: () => Promise.reject(Object.assign(new Error('no'), { code: 'HTTP_HOST_DENIED', referenceCode: 1003, grant: { capability: 5 } })) } });
    expect(odd.error).not.toHaveProperty('grant');
  });

  it('refuses tool results that are not JSON data', async () => {
    const interpreter = createInterpreter({ pool });
    const result = await interpreter.run(wrap('  set r = tool.test.echo()'), { tools: { catalog, call: () => ({ big: BigInt(1) }) } });
    expect(result.error?.code).toBe('SCRIPT_TOOL_ERROR');
  });

  it('ends the run when the host aborts it', async () => {
    const controller = new AbortController();
    const interpreter = createInterpreter({ pool, limits: { fuel: 1e12, wallMs: 30_000, loopIterations: 1e12 } });
    setTimeout(() => controller.abort(), 100);
    const result = await interpreter.run(wrap('  while true\n    set x = 1\n  endwhile'), { signal: controller.signal });
    expect(result.error).toMatchObject({ code: 'SCRIPT_ABORTED', kind: 'cancelled', numericCode: 6 });
  });
});

describe('prepare, then execute', () => {
  const interpreter = createInterpreter({ pool });

  it('prepares plain, persistable data and executes it later with the run\'s tools', async () => {
    const prepared = await interpreter.prepare(wrap('  emit tool.test.echo("a")'), { catalog });
    if (!prepared.ok) throw new Error(JSON.stringify(prepared.diagnostics));
    expect(prepared.diagnostics).toEqual([]);
    expect(prepared.prepared.approvedTools).toEqual(['tool.test.echo']);
    expect(prepared.prepared.mode).toBe('agent');
    const stored = JSON.parse(JSON.stringify(prepared.prepared));
    expect(stored).toEqual(prepared.prepared);
    const result = await interpreter.execute(stored, { tools: { call: (_name, args) => args[0] ?? null } });
    expect(result.emits).toEqual(['a']);
  });

  it('hands out a prepared program frozen, so what execute runs without re-validating it is what was checked', async () => {
    const prepared = await interpreter.prepare(wrap('  emit tool.test.echo("a")'), { catalog });
    if (!prepared.ok) throw new Error(JSON.stringify(prepared.diagnostics));
    const command = prepared.prepared.program.commands[0]!;
    expect(Object.isFrozen(prepared.prepared)).toBe(true);
    expect(Object.isFrozen(command.body)).toBe(true);
    expect(() => (prepared.prepared.approvedTools as string[]).push('tool.fs.write')).toThrow(TypeError);
    expect(() => ((command.body as unknown[])[0] = { type: 'EmitStatement' })).toThrow(TypeError);
    // All the way down: every object and array the prepared program reaches (the call's arguments, their positions).
    const unfrozen: string[] = [];
    const visit = (value: unknown, path: string): void => {
      if (typeof value !== 'object' || value === null) return;
      if (!Object.isFrozen(value)) unfrozen.push(path);
      for (const [key, item] of Object.entries(value)) visit(item, `${path}.${key}`);
    };
    visit(prepared.prepared, 'prepared');
    expect(unfrozen).toEqual([]);
    const result = await interpreter.execute(prepared.prepared, { tools: { call: (_name, args) => args[0] ?? null } });
    expect(result.emits).toEqual(['a']);
  });

  it('refuses a prepared program whose shape is wrong, running nothing', async () => {
    const prepared = await interpreter.prepare(wrap('  emit "x"'));
    if (!prepared.ok) throw new Error('expected ok');
    const forged = { ...prepared.prepared, program: { ...prepared.prepared.program, commands: 'emit 1' } };
    const result = await interpreter.execute(forged as never);
    expect(result.error?.code).toBe('SCRIPT_INVALID_PROGRAM');
    expect(result.emits).toEqual([]);
    const badTools = await interpreter.execute({ ...prepared.prepared, approvedTools: ['Tool.X'] });
    expect(badTools.error?.code).toBe('SCRIPT_INVALID_PROGRAM');
  });

  it('lets execute call only the tools prepare approved', async () => {
    const prepared = await interpreter.prepare(wrap('  emit "x"'));
    if (!prepared.ok) throw new Error('expected ok');
    const called: string[] = [];
    const program = (await interpreter.prepare(wrap('  emit tool.test.echo("a")'), { catalog })) as { prepared: { program: unknown } };
    const widened = { ...prepared.prepared, program: program.prepared.program } as never;
    const result = await interpreter.execute(widened, { tools: { call: (name) => (called.push(name), 1) } });
    expect(result.error?.code).toBe('SCRIPT_TOOL_DENIED');
    expect(called).toEqual([]);
  });

  it('honours allowAsk in both modes', async () => {
    const source = wrap('  ask "helper", "hi" into answer');
    expect((await interpreter.prepare(source, { mode: 'host', allowAsk: false })).diagnostics.map(({ code }) => code)).toEqual(['SCRIPT_ASK_NOT_ALLOWED']);
    expect((await interpreter.prepare(source, { mode: 'agent', allowAsk: true })).ok).toBe(true);
    expect((await interpreter.prepare(source, { mode: 'agent' })).ok).toBe(false);
  });

  it('reports a function defined in two files before anything runs', async () => {
    const library = 'func f() means\n  emit "lib"\nendfunc\n';
    const result = await interpreter.prepare(wrap('  emit "before"\n  call f()'), { mode: 'host', libraries: [library, library] });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.map(({ code, severity, kind, file }) => ({ code, severity, kind, file }))).toEqual([
      { code: 'SCRIPT_DUPLICATE_FUNCTION', severity: 'error', kind: 'check', file: 'library-2' },
    ]);
    expect(result.diagnostics[0]?.message).toContain('already defined in library-1 at line 1');
  });

  it('runs a program whose on error handler has a return it never reaches, with a warning', async () => {
    const library = 'func f(returns r) means\n  on error do\n    return "handled"\n  endon\n  return "fine"\nendfunc\n';
    const prepared = await interpreter.prepare(wrap('  emit f()'), { mode: 'host', libraries: [library] });
    if (!prepared.ok) throw new Error(JSON.stringify(prepared.diagnostics));
    expect(prepared.diagnostics.map(({ code, severity }) => ({ code, severity }))).toEqual([{ code: 'SCRIPT_RETURN_IN_HANDLER', severity: 'warning' }]);
    const result = await interpreter.run(wrap('  emit f()'), { mode: 'host', libraries: [library] });
    expect(result.error).toBeNull();
    expect(result.emits).toEqual(['fine']);
    expect(result.diagnostics.map(({ severity }) => severity)).toEqual(['warning']);
  });

  it('fails the run when the handler reaches the return', async () => {
    const library = 'func f(returns r) means\n  on error do\n    return "handled"\n  endon\n  fail "boom"\nendfunc\n';
    const result = await interpreter.run(wrap('  emit "before"\n  emit f()'), { mode: 'host', libraries: [library] });
    expect(result.error).toMatchObject({ code: 'SCRIPT_RETURN_IN_HANDLER', kind: 'runtime', line: 3 });
    expect(result.emits).toEqual(['before']);
  });
});
