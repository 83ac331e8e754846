/**
 * `& | ^ ~` on whole numbers with int64 semantics (reference §1.7); results
 * come back as numbers. Small operands take the 32-bit fast path.
 */
import { describeValue } from './render.ts';
import { fail, type Position } from './script-error.ts';
import { toInt64 } from './to-number.ts';
import type { Value } from './value.ts';

function integer(operator: string, value: Value, where: Position | null): number {
  const result = toInt64(value);
  if (result === undefined) {
    return fail('SCRIPT_TYPE_MISMATCH', `Operator '${operator}' needs whole numbers within the 64-bit range (±9223372036854775807), got ${describeValue(value)}.`, where);
  }
  return result;
}

const fits32 = (n: number): boolean => n >= -0x80000000 && n <= 0x7fffffff;

/** `left & right`, `left | right`, `left ^ right`. */
export function bitwise(operator: '&' | '|' | '^', left: Value, right: Value, where: Position | null): number {
  const a = integer(operator, left, where);
  const b = integer(operator, right, where);
  if (fits32(a) && fits32(b)) return operator === '&' ? a & b : operator === '|' ? a | b : a ^ b;
  const x = BigInt(a);
  const y = BigInt(b);
  return Number(BigInt.asIntN(64, operator === '&' ? x & y : operator === '|' ? x | y : x ^ y));
}

/** `~value`. */
export function bitwiseNot(value: Value, where: Position | null): number {
  return -integer('~', value, where) - 1;
}
