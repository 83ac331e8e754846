/**
 * `==` / `!=` (reference §1.7 `areValuesEqual`): nil equals only nil, a
 * string and a number compare numerically when the string is numeric,
 * booleans equal only booleans, containers compare deeply without coercion.
 * A deep comparison visits at most `valueItems` items and `MAX_VALUE_DEPTH`
 * levels, so values with shared parts cannot make it run for ever.
 */
import { DEFAULT_LIMITS, type RunLimits } from './limits.ts';
import type { Position } from './script-error.ts';
import { checkValueDepth, type ItemBudget, itemBudget, spendItems } from './size-check.ts';
import { toNumeric } from './to-number.ts';
import { ErrorValue, type Value } from './value.ts';

/** Script equality. Symmetric. */
export function scriptEquals(left: Value, right: Value, limits: Pick<RunLimits, 'valueItems'> = DEFAULT_LIMITS, where: Position | null = null): boolean {
  if (left === null || right === null) return left === right;
  const lt = typeof left;
  const rt = typeof right;
  if (lt === 'string' && rt === 'string') return left === right;
  if (lt === 'number' && rt === 'number') return left === right;
  if (lt === 'number' && rt === 'string') return left === toNumeric(right);
  if (lt === 'string' && rt === 'number') return toNumeric(left) === right;
  if (lt === 'boolean' || rt === 'boolean') return left === right;
  return deepEquals(left, right, limits, where);
}

/** Structural equality without coercion (Go's `reflect.DeepEqual` on unwrapped values). */
export function deepEquals(left: Value, right: Value, limits: Pick<RunLimits, 'valueItems'> = DEFAULT_LIMITS, where: Position | null = null): boolean {
  return walk(left, right, itemBudget(limits, 'Comparing these values with ==', where), 0);
}

function walk(left: Value, right: Value, budget: ItemBudget, depth: number): boolean {
  if (left === right) return true;
  if (Array.isArray(left)) {
    if (!Array.isArray(right) || left.length !== right.length) return false;
    checkValueDepth(depth, budget.where);
    spendItems(budget, left.length);
    for (let i = 0; i < left.length; i++) if (!walk(left[i] as Value, right[i] as Value, budget, depth + 1)) return false;
    return true;
  }
  if (left instanceof Map) {
    if (!(right instanceof Map) || left.size !== right.size) return false;
    checkValueDepth(depth, budget.where);
    spendItems(budget, left.size);
    for (const [key, value] of left) {
      if (!right.has(key) || !walk(value, right.get(key) as Value, budget, depth + 1)) return false;
    }
    return true;
  }
  if (left instanceof ErrorValue) {
    return right instanceof ErrorValue && left.code === right.code && left.message === right.message;
  }
  return false;
}
