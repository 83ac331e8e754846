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
import { checkCollectionSize, fail, type Position, type RunLimits, toInteger, toText, typeName, typedValue, type Value } from '../runtime/index.ts';

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
  return assignLevel(container, step.key, step.field, step.where, steps, from, value, limits, inPlace);
}

/** `assignPath` for a path of one step (`set x[key] = value`), without building the path. */
export function assignOne(container: Value, key: Value, field: boolean, where: Position, value: Value, limits: RunLimits, inPlace: boolean): Value {
  return assignLevel(container, key, field, where, null, 0, value, limits, inPlace);
}

/**
 * One level of the path: the element at `key` becomes `value` itself when
 * `steps` is null (the last level), else `value` stored at `steps[from + 1…]`
 * inside it.
 */
function assignLevel(
  container: Value,
  key: Value,
  field: boolean,
  where: Position,
  steps: readonly PathStep[] | null,
  from: number,
  value: Value,
  limits: RunLimits,
  inPlace: boolean,
): Value {
  let current = container;
  if (current === null) current = !field && typeof key === 'number' && Number.isInteger(key) ? [] : new Map<string, Value>();
  if (Array.isArray(current)) {
    if (field) return fail('SCRIPT_INDEX_TYPE', `Cannot set field '${String(key)}' on a list; use a whole-number index.`, where);
    const index = toInteger(key);
    if (index === undefined) return fail('SCRIPT_INDEX_TYPE', `A list index must be a whole number, got ${typedValue(key)}.`, where);
    if (index < 0) return fail('SCRIPT_INDEX_OUT_OF_RANGE', `List index ${index} is negative; negative indexes are not supported.`, where);
    checkCollectionSize(index + 1, limits, where);
    const copy = inPlace ? current : current.slice();
    while (copy.length < index) copy.push(null);
    copy[index] = steps === null ? value : assignPath(index < current.length ? (current[index] as Value) : null, steps, from + 1, value, limits);
    return copy;
  }
  if (current instanceof Map) {
    const name = field ? String(key) : toText(key, limits.stringLength, where);
    const copy = inPlace ? current : new Map(current);
    copy.set(name, steps === null ? value : assignPath(current.get(name) ?? null, steps, from + 1, value, limits));
    checkCollectionSize(copy.size, limits, where);
    return copy;
  }
  return fail('SCRIPT_NOT_A_CONTAINER', `Cannot set an element inside a ${typeName(current)}; only lists and maps hold elements.`, where);
}
