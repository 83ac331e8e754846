/**
 * `check` on trees `parse` would never build: a hand-built program nested far
 * past the limit gets `SCRIPT_NESTING_TOO_DEEP` instead of overflowing the
 * stack (it threw "Maximum call stack size exceeded" at 100,000 levels), and
 * the cross-file duplicate rule `prepare` and `askloop ns check` share.
 */
import { describe, expect, it } from 'vitest';
import type { Expression, Program } from '../ast/index.ts';
import { parse } from '../parse/index.ts';
import { check } from './check.ts';
import { findDuplicateFunctions } from './duplicate-functions.ts';
import { parseAndCheck } from './parse-and-check.ts';

const at = { line: 2, column: 1 };
function program(value: Expression): Program {
  return {
    type: 'Program', kind: 'command', metadata: [], functions: [], eventHandlers: [], line: 1, column: 1,
    commands: [{ type: 'CommandBlock', metadata: [], line: 1, column: 1, body: [{ type: 'EmitStatement', value, ...at }] }],
  } as Program;
}
function chain(levels: number, wrap: (inner: Expression) => Expression): Expression {
  let expression: Expression = { type: 'NumberLiteral', value: 1, raw: '1', ...at } as Expression;
  for (let level = 0; level < levels; level += 1) expression = wrap(expression);
  return expression;
}

describe('check on hand-built trees of any depth', () => {
  it.each([
    ['unary', (inner: Expression) => ({ type: 'UnaryExpression', operator: 'not', argument: inner, ...at }) as Expression],
    ['binary', (inner: Expression) => ({ type: 'BinaryExpression', operator: '+', left: inner, right: { type: 'NumberLiteral', value: 1, raw: '1', ...at }, ...at }) as Expression],
    ['list', (inner: Expression) => ({ type: 'ListLiteral', elements: [inner], ...at }) as Expression],
  ])('%s nested 100,000 levels: SCRIPT_NESTING_TOO_DEEP, no throw', (_name, wrap) => {
    const diagnostics = check(program(chain(100_000, wrap)), { mode: 'agent' });
    expect(diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['SCRIPT_NESTING_TOO_DEEP']);
    expect(diagnostics[0]?.message).toMatch(/the limit is 100 levels/);
  });

  it('a tree at the limit is checked as usual', () => {
    expect(check(program(chain(98, (inner) => ({ type: 'ListLiteral', elements: [inner], ...at }) as Expression)), { mode: 'agent' })).toEqual([]);
  });
});

describe('findDuplicateFunctions', () => {
  it('reports a function defined in two files at the second definition, naming the first', () => {
    const one = parse('func f() means\n  emit 1\nendfunc\n', { fileName: 'one.ns' });
    const two = parse('func g() means\n  emit 2\nendfunc\nfunc f() means\n  emit 3\nendfunc\n', { fileName: 'two.ns' });
    if (!one.ok || !two.ok) throw new Error('fixture does not parse');
    const diagnostics = findDuplicateFunctions([one.program, two.program]);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ code: 'SCRIPT_DUPLICATE_FUNCTION', file: 'two.ns', line: 4, column: 1, severity: 'error' });
    expect(diagnostics[0]?.message).toBe("Function 'f' is already defined in one.ns at line 1; rename one of them.");
  });
});

describe('check refuses a context it cannot honour', () => {
  const asking = parse('command\n  ask "a", "b" into x\nendcommand\n');
  if (!asking.ok) throw new Error('fixture does not parse');
  it('an unknown mode is an error, not host mode (which allows ask)', () => {
    expect(check(asking.program, { mode: 'agent' }).map((d) => d.code)).toEqual(['SCRIPT_ASK_NOT_ALLOWED']);
    const diagnostics = check(asking.program, { mode: 'Agent' } as never);
    expect(diagnostics.map((d) => [d.code, d.severity])).toEqual([['SCRIPT_INVALID_PROGRAM', 'error']]);
    expect(diagnostics[0]?.message).toContain(`mode must be 'agent' or 'host', got "Agent"`);
  });
  it('a misnamed option, a non-boolean permission, a missing context', () => {
    expect(check(asking.program, { mode: 'agent', catalog: {} } as never)[0]?.message).toContain("no option 'catalog' (the catalogue is 'tools' here");
    expect(check(asking.program, { mode: 'agent', allowAsk: 'no' } as never)[0]?.message).toContain('allowAsk must be true or false');
    expect(check(asking.program, { mode: 'agent', globals: ['userdata'] } as never)[0]?.message).toContain('globals must be a Set');
    expect(check(asking.program, undefined as never)[0]?.code).toBe('SCRIPT_INVALID_PROGRAM');
    expect(parseAndCheck('command\n  emit 1\nendcommand\n', undefined as never).ok).toBe(false);
  });
  it('a program that is not one (walkthrough: check(null) threw a raw TypeError)', () => {
    for (const program of [null, 'command\nendcommand\n', { type: 'Nope' }]) {
      expect(check(program as never, { mode: 'agent' })).toEqual([expect.objectContaining({ code: 'SCRIPT_INVALID_PROGRAM', message: 'check: the program must be what parse() returns (result.program when result.ok)' })]);
    }
  });
});
