/** Truthiness (reference §1.6 table): error is falsy, `"false"` and `"0"` are truthy. */
import { ErrorValue, type Value } from './value.ts';

/** Whether a value counts as true in `if`, `while`, `and`, `or`, `not`, `must`. */
export function isTruthy(value: Value): boolean {
  if (value === null) return false;
  switch (typeof value) {
    case 'boolean':
      return value;
    case 'number':
      return value !== 0;
    case 'string':
      return value.length > 0;
    default:
      if (Array.isArray(value)) return value.length > 0;
      if (value instanceof ErrorValue) return false;
      return value.size > 0;
  }
}
