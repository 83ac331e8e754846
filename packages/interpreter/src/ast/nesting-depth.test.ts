import { describe, expect, it } from 'vitest';
import { parse } from '../parse/parse.ts';
import type { Expression, Node, Program } from './index.ts';
import { findTooDeep, MAX_NESTING_DEPTH, walk } from './index.ts';

function program(value: Expression): Program {
  return {
    type: 'Program',
    kind: 'command',
    metadata: [],
    functions: [],
    eventHandlers: [],
    commands: [{ type: 'CommandBlock', metadata: [], body: [{ type: 'EmitStatement', value, line: 2, column: 3 }], line: 1, column: 1 }],
    line: 1,
    column: 1,
  };
}

/** `levels` nested `not`s around `x`, built without recursion. */
function negations(levels: number): Expression {
  let value: Expression = { type: 'Identifier', name: 'x', line: 2, column: 8 };
  for (let level = 0; level < levels; level += 1) value = { type: 'UnaryExpression', operator: 'not', argument: value, line: 2, column: 8 };
  return value;
}

describe('findTooDeep', () => {
  it('counts statements and expressions only', () => {
    const parsed = parse('command\n  set m[[1]] = {"k": [2]}\nendcommand\n');
    if (!parsed.ok) throw new Error('parse failed');
    // set (1) → map (2) → list (3) → 2 (4); the lvalue, accessor and entry add nothing.
    expect(findTooDeep(parsed.program, 4)).toBeUndefined();
    expect(findTooDeep(parsed.program, 3)).toMatchObject({ depth: 4, node: { type: 'NumberLiteral', value: 2 } });
  });

  it('finds the first node past the limit in a tree of any depth, without recursion', () => {
    const found = findTooDeep(program(negations(300_000)));
    expect(found?.depth).toBe(MAX_NESTING_DEPTH + 1);
    expect(found?.node).toMatchObject({ type: 'UnaryExpression', line: 2, column: 8 });
    expect(findTooDeep(program(negations(MAX_NESTING_DEPTH - 2)))).toBeUndefined();
  });
});

describe('walk', () => {
  it('visits a hand-built tree of any depth without overflowing the stack', () => {
    let visited = 0;
    let deepest = 0;
    walk(program(negations(300_000)), (_node: Node, ancestors) => {
      visited += 1;
      deepest = Math.max(deepest, ancestors.length);
    });
    // Program, command block, emit, 300,000 `not`s, x.
    expect(visited).toBe(300_004);
    expect(deepest).toBe(300_003);
  });
});
