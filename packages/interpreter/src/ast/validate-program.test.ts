import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from '../parse/index.ts';
import { MAX_NESTING_DEPTH } from './nesting-depth.ts';
import { validateProgram } from './validate-program.ts';

function parsedJson(source: string): any {
  const result = parse(source);
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  return JSON.parse(JSON.stringify(result.program));
}

const SOURCE = 'command\n  set m[tool.fs.read()] = 1\n  emit ```x{{tool.fs.read()}}```\n  set q = {tool.fs.read(): 1}\nendcommand\n';

describe('validateProgram', () => {
  it('accepts every program the parser builds (run conformance inputs)', () => {
    const root = join(import.meta.dirname, '../../test/conformance/run');
    const folders = readdirSync(root, { withFileTypes: true }).filter((entry) => entry.isDirectory());
    expect(folders.length).toBeGreaterThan(100);
    for (const folder of folders) {
      const result = validateProgram(parsedJson(readFileSync(join(root, folder.name, 'input.ns'), 'utf8')));
      expect(result.ok, folder.name).toBe(true);
    }
  });

  // The four relabellings of the security review: each hid a tool call from `check` while the generator still compiled it.
  const relabel: Record<string, [(ast: any) => void, string]> = {
    'a set target': [(ast) => (ast.commands[0].body[0].targets[0].type = 'Bogus'), 'program.commands[0].body[0].targets[0].type'],
    'an lvalue accessor': [(ast) => (ast.commands[0].body[0].targets[0].accessors[0].type = 'Bogus'), 'program.commands[0].body[0].targets[0].accessors[0].type'],
    'an interpolation part': [(ast) => (ast.commands[0].body[1].value.parts[1].type = 'Bogus'), 'program.commands[0].body[1].value.parts[1].type'],
    'a map entry': [(ast) => (ast.commands[0].body[2].value.entries[0].type = 'Bogus'), 'program.commands[0].body[2].value.entries[0].type'],
  };
  for (const [what, [mutate, path]] of Object.entries(relabel)) {
    it(`refuses ${what} with an unknown type`, () => {
      const ast = parsedJson(SOURCE);
      mutate(ast);
      const result = validateProgram(ast);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.code).toBe('SCRIPT_INVALID_PROGRAM');
        expect(result.path).toBe(path);
        expect(result.line).toBeGreaterThan(1);
      }
    });
  }

  it('refuses wrong field kinds, unknown operators and non-finite numbers', () => {
    const cases: [(ast: any) => void, string][] = [
      [(ast) => (ast.commands[0].body = {}), 'program.commands[0].body'],
      [(ast) => (ast.commands[0].body[0].targets[0].name = 7), 'program.commands[0].body[0].targets[0].name'],
      [(ast) => (ast.commands[0].line = '2'), 'program.commands[0].line'],
      [(ast) => (ast.commands[0].body[0].value = { type: 'BinaryExpression', operator: 'constructor', left: ast.commands[0].body[0].value, right: ast.commands[0].body[0].value, line: 2, column: 3 }), 'program.commands[0].body[0].value.operator'],
      [(ast) => (ast.commands[0].body[0].value = { type: 'NumberLiteral', value: null, raw: '1e309', line: 2, column: 3 }), 'program.commands[0].body[0].value.value'],
      [(ast) => (ast.commands[0].body[0].targets[0].accessors[0].index.callee.canonicalName = 'tool.fs.delete'), 'program.commands[0].body[0].targets[0].accessors[0].index.callee.canonicalName'],
      [(ast) => (ast.kind = 'toString'), 'program.kind'],
    ];
    for (const [mutate, path] of cases) {
      const ast = parsedJson(SOURCE);
      mutate(ast);
      const result = validateProgram(ast);
      expect(result.ok ? 'ok' : result.path).toBe(path);
    }
    expect(validateProgram(null).ok).toBe(false);
    expect(validateProgram('command').ok).toBe(false);
  });

  it('refuses a hand-built tree nested past the limit with SCRIPT_NESTING_TOO_DEEP, never a RangeError', () => {
    let value: any = { type: 'NilLiteral', line: 1, column: 1 };
    for (let i = 0; i < 200_000; i++) value = { type: 'UnaryExpression', operator: '-', argument: value, line: 2, column: 3 };
    const ast = parsedJson('command\n  emit 1\nendcommand\n');
    ast.commands[0].body[0].value = value;
    const result = validateProgram(ast);
    expect(result).toMatchObject({ ok: false, code: 'SCRIPT_NESTING_TOO_DEEP', line: 2, column: 3 });
    if (!result.ok) expect(result.message).toContain(`the limit is ${MAX_NESTING_DEPTH}`);
  });

  it('counts levels as the parser does: the deepest parsable tree passes, one more level fails', () => {
    const deepest = parsedJson(`command\n  emit ${'- '.repeat(MAX_NESTING_DEPTH - 2)}1\nendcommand\n`);
    expect(validateProgram(deepest).ok).toBe(true);
    const emit = deepest.commands[0].body[0];
    emit.value = { type: 'UnaryExpression', operator: '-', argument: emit.value, line: 2, column: 8 };
    expect(validateProgram(deepest)).toMatchObject({ ok: false, code: 'SCRIPT_NESTING_TOO_DEEP' });
  });

  it('refuses a cyclic object instead of recursing forever', () => {
    const ast = parsedJson('command\n  emit [1]\nendcommand\n');
    ast.commands[0].body[0].value.elements.push(ast.commands[0].body[0].value);
    expect(validateProgram(ast)).toMatchObject({ ok: false, code: 'SCRIPT_NESTING_TOO_DEEP' });
  });
});
