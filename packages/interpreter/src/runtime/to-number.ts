/**
 * Numeric coercion (reference §1.7 ToNumeric / ToInt64): numbers, and strings
 * that hold a decimal number after trimming. Booleans and nil never coerce.
 */
import type { Value } from './value.ts';

/** The longest string that can count as a number (see docs/deviations.md). */
export const MAX_NUMERIC_LENGTH = 256;

const NUMERIC = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The number a value stands for, or `undefined` when it is not numeric. */
export function toNumeric(value: Value): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    // Long strings are never numbers: reading a character would flatten a long
    // concatenated string on every `+` and make string building quadratic.
    if (value.length > MAX_NUMERIC_LENGTH) return undefined;
    // Fast exit for ordinary text so string building stays cheap.
    const first = value.charCodeAt(0);
    if (!(first <= 0x39 || first === 0xa0 || first === 0xfeff || first === 0x2028 || first === 0x2029 || first === 0x3000 || (first >= 0x1680 && first <= 0x205f))) return undefined;
    const trimmed = value.trim();
    return NUMERIC.test(trimmed) ? Number(trimmed) : undefined;
  }
  return undefined;
}

/** The integer a value stands for (integral number or numeric string), or `undefined`. */
export function toInteger(value: Value): number | undefined {
  const number = toNumeric(value);
  return number !== undefined && Number.isInteger(number) ? number : undefined;
}

/** 2^63: the whole numbers of Go's int64 are −2^63 ≤ n < 2^63. */
export const INT64_LIMIT = 9_223_372_036_854_775_808;

/**
 * The int64 a value stands for, as `%` and `& | ^ ~` need it (Go's
 * `ToInt64`, which refuses a float that does not survive `int64(f)`), or
 * `undefined`: a value past ±2^63 is not silently wrapped.
 */
export function toInt64(value: Value): number | undefined {
  const number = toInteger(value);
  return number !== undefined && number >= -INT64_LIMIT && number < INT64_LIMIT ? number : undefined;
}
