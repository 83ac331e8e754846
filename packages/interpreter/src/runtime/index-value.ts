/**
 * Reading `collection[index]` (reference §1.7): lists need a whole-number
 * index in range, map keys are stringified and a missing key is nil, anything
 * else cannot be indexed.
 */
import { toText, typedValue } from './render.ts';
import { DEFAULT_LIMITS, type RunLimits } from './limits.ts';
import { nilHint } from './nil-hint.ts';
import { fail, type Position } from './script-error.ts';
import { toInteger } from './to-number.ts';
import { typeName } from './type-name.ts';
import type { Value } from './value.ts';

/** Reads an element of a list or map. */
export function indexValue(collection: Value, index: Value, where: Position | null, limits: Pick<RunLimits, 'stringLength'> = DEFAULT_LIMITS): Value {
  if (Array.isArray(collection)) {
    const i = typeof index === 'number' && Number.isInteger(index) ? index : toInteger(index);
    if (i === undefined) return fail('SCRIPT_INDEX_TYPE', `A list index must be a whole number, got ${typedValue(index)}.${nilHint([index], '0')}`, where);
    if (i < 0 || i >= collection.length) {
      return fail('SCRIPT_INDEX_OUT_OF_RANGE', `List index ${i} is out of range for a list of length ${collection.length}.`, where);
    }
    return collection[i] as Value;
  }
  if (collection instanceof Map) return collection.get(typeof index === 'string' ? index : toText(index, limits.stringLength, where)) ?? null;
  return fail('SCRIPT_TYPE_MISMATCH', `Cannot index a value of type ${typeName(collection)}; only lists and maps can be indexed.${nilHint([collection], '{}')}`, where);
}
