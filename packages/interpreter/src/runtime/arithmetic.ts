/**
 * `+ - * / % **` and unary `-` (reference §1.7): numeric strings count as
 * numbers, `+` concatenates when a string is involved, `*` repeats strings.
 */
import type { RunLimits } from './limits.ts';
import { nilHint } from './nil-hint.ts';
import { describeValue, toText, typedValue } from './render.ts';
import { fail, type Position } from './script-error.ts';
import { checkStringLength } from './size-check.ts';
import { toInt64, toNumeric } from './to-number.ts';
import type { Value } from './value.ts';

function mismatch(operator: string, left: Value, right: Value, where: Position | null): never {
  return fail('SCRIPT_TYPE_MISMATCH', `Operator '${operator}' cannot combine ${typedValue(left)} and ${typedValue(right)}.${nilHint([left, right])}`, where);
}

/** `left + right`: numeric addition, else string concatenation when either side is a string. */
export function add(left: Value, right: Value, where: Position | null, limits: RunLimits): Value {
  const a = toNumeric(left);
  const b = toNumeric(right);
  if (a !== undefined && b !== undefined) return a + b;
  if (typeof left === 'string' || typeof right === 'string') {
    const l = toText(left, limits.stringLength, where);
    const r = toText(right, limits.stringLength, where);
    checkStringLength(l.length + r.length, limits, where);
    return l + r;
  }
  return mismatch('+', left, right, where);
}

/** `left * right`: string repetition (string × non-negative integer, either order), else multiplication. */
export function multiply(left: Value, right: Value, where: Position | null, limits: RunLimits): Value {
  if (typeof left === 'string' && typeof right === 'number' && Number.isInteger(right) && right >= 0) {
    return repeat(left, right, where, limits);
  }
  if (typeof right === 'string' && typeof left === 'number' && Number.isInteger(left) && left >= 0) {
    return repeat(right, left, where, limits);
  }
  return numeric('*', left, right, where) ;
}

function repeat(text: string, count: number, where: Position | null, limits: RunLimits): string {
  checkStringLength(text.length * count, limits, where);
  return text.repeat(count);
}

/** Applies a purely numeric binary operator after ToNumeric on both sides. */
export function numeric(operator: '-' | '*' | '/' | '%' | '**', left: Value, right: Value, where: Position | null): number {
  const a = toNumeric(left);
  const b = toNumeric(right);
  if (a === undefined || b === undefined) return mismatch(operator, left, right, where);
  switch (operator) {
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      if (b === 0) return fail('SCRIPT_DIVISION_BY_ZERO', 'Division by zero.', where);
      return a / b;
    case '%': {
      const x = toInt64(left);
      const y = toInt64(right);
      if (x === undefined || y === undefined) {
        return fail('SCRIPT_TYPE_MISMATCH', `Operator '%' needs whole numbers within the 64-bit range (±9223372036854775807), got ${describeValue(left)} and ${describeValue(right)}.`, where);
      }
      if (y === 0) return fail('SCRIPT_DIVISION_BY_ZERO', 'Modulo by zero.', where);
      return x % y;
    }
    default:
      // Go's math.Pow, where JavaScript's ** gives NaN: 1 to any power (NaN, ±Inf included) and -1 to ±Inf are 1.
      if (a === 1 || (a === -1 && (b === Infinity || b === -Infinity))) return 1;
      return a ** b;
  }
}

/** Unary `-`. */
export function negate(value: Value, where: Position | null): number {
  const number = toNumeric(value);
  if (number === undefined) {
    return fail('SCRIPT_TYPE_MISMATCH', `Unary '-' needs a number, got ${typedValue(value)}.${nilHint([value])}`, where);
  }
  return -number;
}
