/**
 * `< > <= >=` (reference §1.7): both sides must be numeric (numbers or
 * numeric strings); there is no lexicographic string ordering.
 */
import { typedValue } from './render.ts';
import { nilHint } from './nil-hint.ts';
import { fail, type Position } from './script-error.ts';
import { toNumeric } from './to-number.ts';
import type { Value } from './value.ts';

/** Evaluates an ordering operator. */
export function compare(operator: '<' | '>' | '<=' | '>=', left: Value, right: Value, where: Position | null): boolean {
  const a = toNumeric(left);
  const b = toNumeric(right);
  if (a === undefined || b === undefined) {
    // Only a string operand makes the "no string ordering" hint relevant.
    const hint = typeof left === 'string' || typeof right === 'string' ? '; strings have no ordering' : '';
    return fail(
      'SCRIPT_TYPE_MISMATCH',
      `Operator '${operator}' compares numbers only, got ${typedValue(left)} and ${typedValue(right)}${hint}.${nilHint([left, right])}`,
      where,
    );
  }
  switch (operator) {
    case '<':
      return a < b;
    case '>':
      return a > b;
    case '<=':
      return a <= b;
    default:
      return a >= b;
  }
}
