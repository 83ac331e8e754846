import { describe, expect, it } from 'vitest';
import type { Program } from '../../ast/index.ts';
import { parse } from '../../parse/index.ts';
import { resolveLimits, toText, type Value } from '../../runtime/index.ts';
import { evaluateProgram } from '../evaluate-program.ts';
import type { HostBridge } from '../host-bridge.ts';
import { Machine } from '../machine.ts';
import type { CompiledProgram } from './compiled-program.ts';
import { generateProgram } from './generate-program.ts';
import { instantiateProgram } from './instantiate-program.ts';

const host: HostBridge = { request: () => ({ ok: true, value: null }), now: () => 0 };

function parsed(source: string): Program {
  const result = parse(source);
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  return result.program;
}

/** Replaces every identifier-like string in an AST with `rename(old)` (what a hostile AST could carry). */
function renameAll(node: unknown, rename: (name: string) => string): unknown {
  if (Array.isArray(node)) return node.map((item) => renameAll(item, rename));
  if (node === null || typeof node !== 'object') return node;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'name' || key === 'variable' || key === 'canonicalName') && typeof value === 'string') copy[key] = rename(value);
    else if ((key === 'required' || key === 'optional') && Array.isArray(value)) copy[key] = value.map((name: string) => rename(name));
    else copy[key] = renameAll(value, rename);
  }
  return copy;
}

/** Generates the program (as the host does) and instantiates it on `machine` (as the isolate does). */
function compileProgram(program: Program, libraries: readonly Program[], machine: Machine): CompiledProgram & { run(): void } {
  const compiled = generateProgram(program, libraries, { limits: machine.limits, globals: new Set(machine.globals.keys()) });
  return { ...compiled, run: instantiateProgram(JSON.parse(JSON.stringify(compiled)) as CompiledProgram, machine) };
}

describe('generateProgram + instantiateProgram', () => {
  it('never puts script text into the generated source', () => {
    const hostile = '"); globalThis.pwned = 1; ("';
    const library = renameAll(parsed('func f(needs a) means\n  set b = a\n  return b\nendfunc\n'), (name) => `${name}${hostile}`) as Program;
    const program = renameAll(parsed(`command\n  set x = f("${'}); globalThis.pwned = 2; ({'}")\n  emit x\nendcommand\n`), (name) => `${name}${hostile}`) as Program;
    const machine = new Machine(resolveLimits({}), host, new Map(), false, 0);
    const compiled = compileProgram(program, [library], machine);
    expect(compiled.source).not.toContain('pwned');
    compiled.run();
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined();
    expect(machine.emits).toEqual(['}); globalThis.pwned = 2; ({']);
  });

  it('writes only finite numbers into the source; any other number literal value goes through the constant table', () => {
    const values: unknown[] = [Number.NaN, -0, Infinity, -Infinity, -2.5, 1e21, 5e-7, '1); globalThis.pwned = 3; (1'];
    const program = parsed(`command\n${values.map(() => '  emit 7').join('\n')}\nendcommand\n`);
    const ast = JSON.parse(JSON.stringify(program));
    values.forEach((value, index) => (ast.commands[0].body[index].value.value = value));
    const machine = new Machine(resolveLimits({}), host, new Map(), false, 0);
    const compiled = compileProgram(ast, [], machine);
    expect(compiled.source).not.toContain('pwned');
    compiled.run();
    expect((globalThis as Record<string, unknown>).pwned).toBeUndefined();
    expect(machine.emits).toEqual(values.map((value) => toText(value as Value)));
  });

  it('handles names that are special in JavaScript objects', () => {
    const library = parsed('func constructor(needs __proto__) means\n  set toString = __proto__ + 1\n  return toString\nendfunc\n');
    const output = evaluateProgram({ program: parsed('command\n  emit constructor(1)\n  set hasOwnProperty = 2\n  emit hasOwnProperty\nendcommand\n'), libraries: [library] }, host);
    expect(output.error).toBeNull();
    expect(output.emits).toEqual(['2', '2']);
  });

  it('runs a handler error once even inside nested blocks', () => {
    const library = parsed(
      'func test() means\n  on error do\n    emit "handler"\n    set y = 1 / 0\n  endon\n  if true\n    if true\n      fail "first"\n    endif\n  endif\nendfunc\n',
    );
    const output = evaluateProgram({ program: parsed('command\n  call test()\nendcommand\n'), libraries: [library] }, host);
    expect(output.emits).toEqual(['handler']);
    expect(output.error?.code).toBe('SCRIPT_DIVISION_BY_ZERO');
  });

  it('generates a unary operator\'s operand once: a chain of them grows the code linearly, not 2^n', () => {
    // `not not … not x` generated each operand twice (once unused): 24 of them took 24 s and 170 MB of source in the host.
    const compile = (operators: string): number => {
      const compiled = generateProgram(parsed(`command\n  emit ${operators}(len("a") + 1)\nendcommand\n`), [], { limits: resolveLimits({}), globals: new Set() });
      return compiled.source.length + compiled.positions.length + compiled.constants.length;
    };
    for (const operator of ['not ', 'no ', 'some ', '- ', '~ ', 'typeof ']) {
      const short = compile(operator.repeat(8));
      const long = compile(operator.repeat(16));
      expect(long, operator).toBeLessThan(2 * short);
    }
    const output = evaluateProgram({ program: parsed(`command\n  emit ${'not '.repeat(60)}(len("a") + 1)\n  emit ${'not '.repeat(61)}0\nendcommand\n`) }, host);
    expect(output.error).toBeNull();
    expect(output.emits).toEqual(['true', 'true']);
  });

  // Security review finding 1(b) and 5: the generator compiles only the node types and operators it knows.
  it('refuses relabelled nodes and unknown operators instead of compiling them', () => {
    const source = 'command\n  set m[tool.fs.delete()] = 1\n  emit ```x{{tool.fs.delete()}}```\n  set q = {tool.fs.delete(): 1}\n  emit 1 + 2\n  emit -1\nendcommand\n';
    const mutations: ((ast: any) => void)[] = [
      (ast) => (ast.commands[0].body[0].targets[0].type = 'Bogus'),
      (ast) => (ast.commands[0].body[0].targets[0].accessors[0].type = 'Bogus'),
      (ast) => (ast.commands[0].body[1].value.parts[1].type = 'Bogus'),
      (ast) => (ast.commands[0].body[2].value.entries[0].type = 'Bogus'),
      (ast) => (ast.commands[0].body[3].value.operator = 'constructor'),
      (ast) => (ast.commands[0].body[4].value.operator = 'toString'),
      (ast) => (ast.commands[0].body[4].type = 'Bogus'),
    ];
    for (const mutate of mutations) {
      const ast = JSON.parse(JSON.stringify(parsed(source)));
      mutate(ast);
      const requests: string[] = [];
      const output = evaluateProgram({ program: ast }, { request: (request) => (requests.push(request.kind), { ok: true, value: null }), now: () => 0 });
      expect(output.error?.code).toBe('SCRIPT_INTERNAL');
      expect(output.error?.message).toContain('code generator');
      expect(requests).toEqual([]);
    }
  });
});

describe('generateProgram refuses what the check refuses, for a program that skipped it', () => {
  it('a parameter named twice is SCRIPT_DUPLICATE_PARAMETER at the function, not a JavaScript syntax error', () => {
    const library = parse('func h(needs a optional a) means\n  return a\nendfunc\n');
    const command = parse('command\n  emit "unrelated"\nendcommand\n');
    if (!library.ok || !command.ok) throw new Error('does not parse');
    const options = { limits: resolveLimits({}), globals: new Set<string>() };
    expect(() => generateProgram(command.program, [library.program], options)).toThrowError(expect.objectContaining({ code: 'SCRIPT_DUPLICATE_PARAMETER', line: 1, message: "Function 'h' names the parameter 'a' twice; give each parameter its own name." }));
    // Through the in-process evaluator, the run's error names the code and the function's line, not SCRIPT_INTERNAL.
    const output = evaluateProgram({ program: command.program, libraries: [library.program] }, host);
    expect(output.error).toMatchObject({ code: 'SCRIPT_DUPLICATE_PARAMETER', line: 1 });
  });

  it("a parameter named like a global is SCRIPT_GLOBAL_READ_ONLY in the function's frame, so a host names the library's file, not the command's", () => {
    const library = parsed('\n\nfunc f(needs userdata, x) means\n  return x\nendfunc\n');
    const command = parsed('command\n  emit f(1, 2)\nendcommand\n');
    const output = evaluateProgram({ program: command, libraries: [library], globals: { userdata: {} } }, host);
    expect(output.error).toMatchObject({
      code: 'SCRIPT_GLOBAL_READ_ONLY',
      line: 3,
      message: "Parameter 'userdata' of function 'f' has the name of a global, which it would never be read as; give the parameter another name.",
      // The innermost frame is what `askloop ns run` reads to tell the file: `command` named the command file.
      frames: [{ name: 'f', line: 3, column: 1 }],
    });
  });
});
