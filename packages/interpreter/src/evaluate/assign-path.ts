/**
 * Writing through an lvalue path with value semantics (reference §1.8 `set`):
 * every container on the path is copied, changed and re-bound, so no other
 * variable ever sees the change. Missing containers are created
 * (auto-vivification): `.field` makes a map, `[n]` with a whole number makes a
 * list padded with nil, any other `[key]` makes a map.
 *
 * `inPlace` (top level only) changes a container that only one variable holds
 * instead of copying it, so building a list item by item stays linear.
 */
import { checkCollectionSize, fail, type Position, type RunLimits, toInteger, toText, typeName, type Value } from '../runtime/index.ts';

/** One evaluated step of an lvalue path. */
export interface PathStep {
  /** Field name for `.field`, evaluated key for `[key]`. */
  readonly key: Value;
  readonly field: boolean;
  readonly where: Position;
}

/** Returns a copy of `container` (or, with `inPlace`, the container itself) with `value` stored at `steps[from…]`. */
export function assignPath(container: Value, steps: readonly PathStep[], from: number, value: Value, limits: RunLimits, inPlace = false): Value {
  if (from === steps.length) return value;
  const step = steps[from] as PathStep;
  let current = container;
  if (current === null) current = !step.field && typeof step.key === 'number' && Number.isInteger(step.key) ? [] : new Map<string, Value>();
  if (Array.isArray(current)) {
    if (step.field) return fail('SCRIPT_INDEX_TYPE', `Cannot set field '${String(step.key)}' on a list; use a whole-number index.`, step.where);
    const index = toInteger(step.key);
    if (index === undefined) return fail('SCRIPT_INDEX_TYPE', `A list index must be a whole number, got ${typeName(step.key)}.`, step.where);
    if (index < 0) return fail('SCRIPT_INDEX_OUT_OF_RANGE', `List index ${index} is negative; negative indexes are not supported.`, step.where);
    checkCollectionSize(index + 1, limits, step.where);
    const copy = inPlace ? current : current.slice();
    while (copy.length < index) copy.push(null);
    copy[index] = assignPath(index < current.length ? (current[index] as Value) : null, steps, from + 1, value, limits);
    return copy;
  }
  if (current instanceof Map) {
    const key = step.field ? String(step.key) : toText(step.key, limits.stringLength, step.where);
    const copy = inPlace ? current : new Map(current);
    copy.set(key, assignPath(current.get(key) ?? null, steps, from + 1, value, limits));
    checkCollectionSize(copy.size, limits, step.where);
    return copy;
  }
  return fail('SCRIPT_NOT_A_CONTAINER', `Cannot set an element inside a ${typeName(current)}; only lists and maps hold elements.`, step.where);
}
