/** Regression tests of the interpreter security review (crafted ASTs, special names, library checks), through the sandbox. */
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from '../parse/index.ts';
import { createSandboxPool } from '../sandbox/index.ts';
import type { ToolCatalog } from '../tool-signature.ts';
import type { Program } from '../ast/index.ts';
import { createInterpreter } from './create-interpreter.ts';
import type { RunOptions, ToolBridge } from './run-types.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

const catalog: ToolCatalog = {
  get: (name) => {
    const canonical = `tool.${name.toLowerCase().replace(/^tool\./, '')}`;
    return ['tool.fs.read', 'tool.fs.delete', 'tool.t.echo'].includes(canonical) ? { name: canonical, arguments: [], variadic: true } : undefined;
  },
  names: () => ['tool.fs.delete', 'tool.fs.read', 'tool.t.echo'],
  // The host's one policy: everything but tool.fs.delete.
  check: (name) => (name === 'tool.fs.delete' ? { code: 'POLICY_NOT_ALLOWED', message: 'tool.fs.delete is not in the allow list' } : undefined),
};

function setup() {
  const called: { name: string; args: unknown }[] = [];
  const real = createInterpreter({ pool });
  const tools: ToolBridge = { catalog, call: (name, args) => (called.push({ name, args }), args) };
  const interpreter = { run: (source: string | Program, options: RunOptions = {}) => real.run(source, { tools, ...options }) };
  return { interpreter, called };
}

function parsedJson(source: string): any {
  const result = parse(source);
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  return JSON.parse(JSON.stringify(result.program));
}

describe('crafted ASTs (review finding 1)', () => {
  const source = 'command\n  set m[tool.fs.read()] = 1\n  emit ```x{{tool.fs.read()}}```\n  set q = {tool.fs.read(): 1}\nendcommand\n';
  const variants: Record<string, [number, (ast: any) => void]> = {
    'set target': [0, (ast) => (ast.commands[0].body[0].targets[0].type = 'Bogus')],
    'lvalue accessor': [0, (ast) => (ast.commands[0].body[0].targets[0].accessors[0].type = 'Bogus')],
    'interpolation part': [1, (ast) => (ast.commands[0].body[1].value.parts[1].type = 'Bogus')],
    'map entry': [2, (ast) => (ast.commands[0].body[2].value.entries[0].type = 'Bogus')],
  };
  for (const [what, [statement, mutate]] of Object.entries(variants)) {
    it(`refuses a relabelled ${what} hiding a denied tool; nothing runs`, async () => {
      const { interpreter, called } = setup();
      const ast = JSON.parse(JSON.stringify(parsedJson(source)).replaceAll('fs.read', 'fs.delete'));
      mutate(ast);
      ast.commands[0].body = [ast.commands[0].body[statement]];
      const result = await interpreter.run(ast);
      expect(result.error?.code).toBe('SCRIPT_INVALID_PROGRAM');
      expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['SCRIPT_INVALID_PROGRAM']);
      expect(called).toEqual([]);
    });
  }

  it('refuses a library given as a malformed AST', async () => {
    const { interpreter, called } = setup();
    const library = parsedJson('func f() means\n  emit 1\nendfunc\n');
    library.functions[0].body = 'emit 1';
    const result = await interpreter.run('command\n  call f()\nendcommand\n', { mode: 'host', libraries: [library] });
    expect(result.error?.code).toBe('SCRIPT_INVALID_PROGRAM');
    expect(called).toEqual([]);
  });

  it('still runs a valid AST object', async () => {
    const { interpreter, called } = setup();
    const result = await interpreter.run(parsedJson('command\n  emit tool.fs.read("a")\nendcommand\n'));
    expect(result.error).toBeNull();
    expect(called).toEqual([{ name: 'tool.fs.read', args: ['a'] }]);
  });
});

describe('special names (review finding 4)', () => {
  it('keeps __proto__, toString and constructor whisper targets as own properties', async () => {
    const { interpreter } = setup();
    const result = await interpreter.run('command\n  whisper "__proto__", "secret"\n  whisper "toString", "x"\n  whisper "constructor", "y"\n  whisper "toString", "z"\nendcommand\n');
    expect(result.error).toBeNull();
    expect(Object.keys(result.whispers)).toEqual(['__proto__', 'toString', 'constructor']);
    expect(Object.hasOwn(result.whispers, '__proto__')).toBe(true);
    expect(result.whispers['toString']).toBe('x\nz');
    expect(JSON.parse(JSON.stringify(result.whispers))).toEqual(JSON.parse('{"__proto__":"secret","toString":"x\\nz","constructor":"y"}'));
  });

  it('passes a __proto__ map key to a tool as an own property', async () => {
    const { interpreter, called } = setup();
    const result = await interpreter.run('command\n  set r = tool.t.echo({"__proto__": {"x": 1}, "b": 2})\n  emit r\nendcommand\n');
    expect(result.error).toBeNull();
    expect(JSON.stringify(called[0]?.args)).toBe('[{"__proto__":{"x":1},"b":2}]');
    expect(result.emits).toEqual(['[{"__proto__": {"x": 1}, "b": 2}]']);
  });

  it('keeps __proto__ keys of userdata and globals', async () => {
    const { interpreter } = setup();
    const userdata = JSON.parse('{"__proto__": {"x": 1}, "b": 2}');
    const result = await interpreter.run('command\n  emit userdata\n  emit toString\nendcommand\n', { userdata, globals: JSON.parse('{"toString": "own"}') });
    expect(result.emits).toEqual(['{"__proto__": {"x": 1}, "b": 2}', 'own']);
  });
});

describe('code generated in the host (security review 2)', () => {
  it('a chain of unary operators costs the host linear work: 20 nots run, not 40 MB of code', async () => {
    const { interpreter } = setup();
    const result = await interpreter.run(`command\n  emit ${'not '.repeat(20)}(len("a") + 1)\n  emit ${'- '.repeat(21)}1\nendcommand\n`);
    expect(result.error).toBeNull();
    expect(result.emits).toEqual(['true', '-1']);
  });
});

describe('a stack overflow inside the tool bridge (security review 2)', () => {
  it('is SCRIPT_CALL_DEPTH, the program\'s depth, not SCRIPT_INTERNAL blaming the host', async () => {
    const { interpreter, called } = setup();
    const library = 'func r(needs n) means\n  if n > 0\n    return r(n - 1)\n  endif\n  return tool.t.echo(1)\nendfunc\n';
    const run = (depth: number) =>
      interpreter.run(`command\n  emit r(${depth})\nendcommand\n`, { mode: 'host', libraries: [library], limits: { callDepth: 1_000_000, fuel: 10_000_000 } });
    // The deepest recursion that still sends its call: there the stack runs out in the bridge, after the call went out.
    const errors: { readonly depth: number; readonly sent: boolean; readonly code: string | undefined }[] = [];
    const runAt = async (depth: number): Promise<boolean> => {
      const before = called.length;
      const result = await run(depth);
      const sent = called.length > before;
      if (result.error !== null) errors.push({ depth, sent, code: result.error.code });
      return sent;
    };
    let sends = 0;
    let fails = 200_000;
    while (fails - sends > 1) {
      const depth = Math.floor((sends + fails) / 2);
      if (await runAt(depth)) sends = depth;
      else fails = depth;
    }
    await runAt(sends - 1);
    await runAt(sends);
    // Before: SCRIPT_INTERNAL "The host failed to answer a tool request: Maximum call stack size exceeded" at the
    // deepest recursion that sent its call. Every run that ran out of stack, before or after its call, is the program's depth.
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.filter((error) => error.code !== 'SCRIPT_CALL_DEPTH')).toEqual([]);
  }, 60_000);
});

describe('globals nested too deeply', () => {
  /** `{"subject": "s", "fields": [[…[]…]]}` with `levels` nested lists, as JSON.parse gives it from `--userdata`. */
  const nested = (levels: number): unknown => JSON.parse(`{"subject":"s","fields":${'['.repeat(levels)}${']'.repeat(levels)}}`);
  const tooDeep = { code: 'SCRIPT_VALUE_TOO_LARGE', kind: 'quota', message: 'A value is nested more than 100 levels deep (lists or maps inside each other); keep values flatter.' };

  it('are SCRIPT_VALUE_TOO_LARGE at any depth, never the JSON copy overflowing the host stack, and nothing runs', async () => {
    const { interpreter, called } = setup();
    const source = 'command\n  emit "ran"\n  call tool.t.echo(1)\nendcommand\n';
    for (const levels of [101, 4500, 100_000]) {
      const result = await interpreter.run(source, { userdata: nested(levels) as never });
      expect(result).toMatchObject({ ok: false, emits: [], error: tooDeep });
      const other = await interpreter.run(source, { mode: 'host', globals: { deep: nested(levels) } as never });
      expect(other).toMatchObject({ ok: false, emits: [], error: tooDeep });
    }
    expect(called).toEqual([]);
  });

  it('run as before at the limit', async () => {
    const { interpreter } = setup();
    const result = await interpreter.run('command\n  emit len(userdata["fields"])\nendcommand\n', { userdata: nested(100) as never });
    expect(result).toMatchObject({ error: null, emits: ['1'] });
  });
});

describe('libraries called from an agent turn (review finding 6)', () => {
  it('refuses promptuser and ask in libraries of an agent run by default', async () => {
    const { interpreter } = setup();
    const library = 'func f() means\n  promptuser "name?" into n\n  ask "m", "hi" into r\nendfunc\n';
    const result = await interpreter.run('command\n  call f()\nendcommand\n', { libraries: [library] });
    expect(result.diagnostics.map((diagnostic) => diagnostic.code).sort()).toEqual(['SCRIPT_ASK_NOT_ALLOWED', 'SCRIPT_PROMPTUSER_NOT_ALLOWED']);
  });

  it('allows them in host mode', async () => {
    const { interpreter } = setup();
    const library = 'func f() means\n  promptuser "name?" into n\nendfunc\n';
    const result = await interpreter.run('command\n  call f()\nendcommand\n', { mode: 'host', libraries: [library] });
    expect(result.diagnostics).toEqual([]);
    expect(result.error?.code).toBe('SCRIPT_PROMPT_UNAVAILABLE');
  });
});
