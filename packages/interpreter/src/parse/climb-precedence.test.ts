import { describe, expect, it } from 'vitest';
import type { BinaryOperator, Expression } from '../ast/index.ts';
import { climbPrecedence } from './climb-precedence.ts';

const leaf = (name: string): Expression => ({ type: 'Identifier', name, line: 1, column: 1 });

function show(expression: Expression): string {
  return expression.type === 'BinaryExpression' ? `(${show(expression.left)} ${expression.operator} ${show(expression.right)})` : expression.type === 'Identifier' ? expression.name : '?';
}

function fold(...tokens: string[]): string {
  const operands = tokens.filter((_, index) => index % 2 === 0).map(leaf);
  const operators = tokens.filter((_, index) => index % 2 === 1) as BinaryOperator[];
  return show(climbPrecedence(operands[0] as Expression, operators, operands.slice(1)));
}

describe('climbPrecedence', () => {
  it.each([
    [['a', '-', 'b', '-', 'c'], '((a - b) - c)'],
    [['a', '+', 'b', '*', 'c'], '(a + (b * c))'],
    [['a', '*', 'b', '+', 'c'], '((a * b) + c)'],
    [['a', '&', 'b', '==', 'c'], '(a & (b == c))'],
    [['a', '<', 'b', '<', 'c'], '((a < b) < c)'],
    [['a', 'or', 'b', 'and', 'c', '|', 'd'], '(a or (b and (c | d)))'],
    [['a', '==', 'b', 'or', 'c', '!=', 'd'], '((a == b) or (c != d))'],
    [['a', '^', 'b', '|', 'c', '^', 'd'], '((a ^ b) | (c ^ d))'],
    [['a', '+', 'b', '*', 'c', '-', 'd', '/', 'e', '%', 'f'], '((a + (b * c)) - ((d / e) % f))'],
  ])('%j → %s', (tokens, expected) => expect(fold(...tokens)).toBe(expected));
});
