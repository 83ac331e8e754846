/**
 * `==` / `!=` (reference §1.7 `areValuesEqual`): nil equals only nil, a
 * string and a number compare numerically when the string is numeric,
 * booleans equal only booleans, containers compare deeply without coercion.
 */
import { toNumeric } from './to-number.ts';
import { ErrorValue, type Value } from './value.ts';

/** Script equality. Symmetric. */
export function scriptEquals(left: Value, right: Value): boolean {
  if (left === null || right === null) return left === right;
  const lt = typeof left;
  const rt = typeof right;
  if (lt === 'string' && rt === 'string') return left === right;
  if (lt === 'number' && rt === 'number') return left === right;
  if (lt === 'number' && rt === 'string') return left === toNumeric(right);
  if (lt === 'string' && rt === 'number') return toNumeric(left) === right;
  if (lt === 'boolean' || rt === 'boolean') return left === right;
  return deepEquals(left, right);
}

/** Structural equality without coercion (Go's `reflect.DeepEqual` on unwrapped values). */
export function deepEquals(left: Value, right: Value): boolean {
  if (left === right) return true;
  if (Array.isArray(left)) {
    if (!Array.isArray(right) || left.length !== right.length) return false;
    for (let i = 0; i < left.length; i++) if (!deepEquals(left[i] as Value, right[i] as Value)) return false;
    return true;
  }
  if (left instanceof Map) {
    if (!(right instanceof Map) || left.size !== right.size) return false;
    for (const [key, value] of left) {
      if (!right.has(key) || !deepEquals(value, right.get(key) as Value)) return false;
    }
    return true;
  }
  if (left instanceof ErrorValue) {
    return right instanceof ErrorValue && left.code === right.code && left.message === right.message;
  }
  return false;
}
