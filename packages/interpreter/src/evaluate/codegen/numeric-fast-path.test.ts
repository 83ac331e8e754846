/**
 * The generated code computes `+ - * / % < > <= >=` inline when both operands
 * are numbers and calls the runtime helper otherwise; `and`, `or`, `not` and
 * conditions skip the truthiness test when the operand is already a boolean.
 * These tests hold every such operator to the runtime's own semantics
 * (`src/runtime`) for a table of awkward values — numeric strings, nil,
 * booleans, lists, -0, NaN, ±Infinity, integers past 2^53 — in the three
 * shapes the generator treats differently: literal operands, variables, and
 * operands that need a temporary (call results).
 */
import { describe, expect, it } from 'vitest';
import type { Program } from '../../ast/index.ts';
import { parse } from '../../parse/index.ts';
import { add, compare, DEFAULT_LIMITS, errorKind, isTruthy, multiply, numeric, ScriptError, skipsHandlers, toText, type Value } from '../../runtime/index.ts';
import { evaluateProgram } from '../evaluate-program.ts';
import type { HostBridge } from '../host-bridge.ts';

const host: HostBridge = { request: () => ({ ok: true, value: null }), now: () => 0 };

/** Script source of a value, and the value itself. */
const VALUES: readonly [string, Value][] = [
  ['1', 1],
  ['0', 0],
  ['2.5', 2.5],
  ['-3', -3],
  ['-0', -0],
  ['0.1', 0.1],
  ['9007199254740993', 9007199254740993],
  ['"4"', '4'],
  ['" 5 "', ' 5 '],
  ['"abc"', 'abc'],
  ['""', ''],
  ['nil', null],
  ['true', true],
  ['[1]', [1]],
  ['(1e308 * 10)', Infinity],
  ['(0 - 1e308 * 10)', -Infinity],
  ['(1e308 * 10 - 1e308 * 10)', Number.NaN],
];

const where = { line: 1, column: 1 };

/** The runtime's answer for `a <op> b`. */
const SEMANTICS: Record<string, (a: Value, b: Value) => Value> = {
  '+': (a, b) => add(a, b, where, DEFAULT_LIMITS),
  '-': (a, b) => numeric('-', a, b, where),
  '*': (a, b) => multiply(a, b, where, DEFAULT_LIMITS),
  '/': (a, b) => numeric('/', a, b, where),
  '%': (a, b) => numeric('%', a, b, where),
  '<': (a, b) => compare('<', a, b, where),
  '>': (a, b) => compare('>', a, b, where),
  '<=': (a, b) => compare('<=', a, b, where),
  '>=': (a, b) => compare('>=', a, b, where),
  and: (a, b) => isTruthy(a) && isTruthy(b),
  or: (a, b) => isTruthy(a) || isTruthy(b),
};

/** What `emit [value]` prints, or what the error handler below prints; null for an error no handler sees (a quota). */
function expected(operator: string, a: Value, b: Value): string | null {
  try {
    return toText([(SEMANTICS[operator] as (a: Value, b: Value) => Value)(a, b)]);
  } catch (error) {
    if (error instanceof ScriptError) return skipsHandlers(errorKind(error.code)) ? null : `E ${error.code}`;
    throw error;
  }
}

function parsed(source: string): Program {
  const result = parse(source);
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  return result.program;
}

const LIBRARY = parsed('func id(needs x returns y) means\n  return x\nendfunc\n');

describe('inline operator fast paths keep the runtime semantics', () => {
  for (const operator of Object.keys(SEMANTICS)) {
    it(`${operator}: literals, variables and call results give the runtime's result`, () => {
      const lines = ['command', '  on error do', '    emit "E " + system_error_code', '    clear_error', '  endon'];
      const wanted: string[] = [];
      for (const [leftSource, left] of VALUES) {
        for (const [rightSource, right] of VALUES) {
          const result = expected(operator, left, right);
          // A quota error (a string repeated past the length limit) would end the run; its fast path is never taken anyway.
          if (result === null) continue;
          lines.push(`  emit [${leftSource} ${operator} ${rightSource}]`);
          lines.push(`  set a = ${leftSource}`, `  set b = ${rightSource}`, `  emit [a ${operator} b]`, `  emit [id(a) ${operator} id(b)]`);
          wanted.push(result, result, result);
        }
      }
      lines.push('endcommand', '');
      const output = evaluateProgram({ program: parsed(lines.join('\n')), libraries: [LIBRARY] }, host);
      expect(output.error).toBeNull();
      expect(output.emits).toEqual(wanted);
    });
  }

  it('conditions test truthiness whether or not the operand is a boolean', () => {
    const lines = ['command'];
    const wanted: string[] = [];
    for (const [source, value] of VALUES) {
      lines.push(`  set v = ${source}`);
      lines.push(`  if v\n    emit "if"\n  else\n    emit "else"\n  endif`, `  emit [not v, some v, no v, not (v == 1), v and true, v or false]`);
      const truthy = isTruthy(value);
      wanted.push(truthy ? 'if' : 'else', toText([!truthy, truthy, !truthy, !(value === 1), truthy, truthy]));
    }
    lines.push('endcommand', '');
    const output = evaluateProgram({ program: parsed(lines.join('\n')) }, host);
    expect(output.error).toBeNull();
    expect(output.emits).toEqual(wanted);
  });

  const readsOfU = (prefix: string) =>
    `command\n  on error do\n    emit "E " + system_error_code\n    clear_error\n  endon\n${prefix}  emit [u + 1]\n  emit [u < 1]\n  emit [u and true]\n  emit [not u]\n  if u\n    emit "set"\n  endif\n  set w = u\n  emit [w, u == nil]\nendcommand\n`;

  it('reads a variable not yet set on this path as nil, in operators and conditions', () => {
    const unset = evaluateProgram({ program: parsed(readsOfU('  if false\n    set u = 0\n  endif\n')) }, host);
    const nil = evaluateProgram({ program: parsed(readsOfU('  set u = nil\n')) }, host);
    expect(unset.error).toBeNull();
    expect(unset.emits).toEqual(nil.emits);
    expect(unset.emits).toEqual([expected('+', null, 1), expected('<', null, 1), '[false]', '[true]', '[nil, true]']);
  });

  it('refuses every read of a name the program never sets, in operators, conditions and assignments alike', () => {
    const never = evaluateProgram({ program: parsed(readsOfU('')) }, host);
    expect(never.error).toBeNull();
    // Seven reads, seven caught errors: the fast paths never see the name as nil.
    expect(never.emits).toEqual(Array.from({ length: 7 }, () => 'E SCRIPT_VARIABLE_UNSET'));
  });
});
