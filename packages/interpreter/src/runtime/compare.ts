/**
 * `< > <= >=` (reference §1.7): both sides must be numeric (numbers or
 * numeric strings); there is no lexicographic string ordering.
 */
import { describeValue } from './render.ts';
import { fail, type Position } from './script-error.ts';
import { toNumeric } from './to-number.ts';
import { typeName } from './type-name.ts';
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
      `Operator '${operator}' compares numbers only, got ${typeName(left)} ${describeValue(left)} and ${typeName(right)} ${describeValue(right)}${hint}.`,
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
