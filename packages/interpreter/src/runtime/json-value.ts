/**
 * Conversion between script values and JSON data, the only form values take
 * when they cross the isolate boundary (tool arguments and results, userdata,
 * orchestrator answers). Objects become maps; anything else JSON cannot hold
 * is refused by the host before it gets here.
 */
import type { RunLimits } from './limits.ts';
import { fail, type Position } from './script-error.ts';
import { checkCollectionSize, checkStringLength } from './size-check.ts';
import { ErrorValue, type Value } from './value.ts';

/** JSON data. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** JSON data → script value, enforcing the size limits on every string, list and map. */
export function fromJson(data: unknown, limits: RunLimits, where: Position | null, depth = 0): Value {
  if (depth > 100) return fail('SCRIPT_VALUE_TOO_LARGE', 'A value is nested more than 100 levels deep.', where);
  if (data === null || data === undefined) return null;
  switch (typeof data) {
    case 'boolean':
    case 'number':
      return data;
    case 'string':
      checkStringLength(data.length, limits, where);
      return data;
    case 'object':
      if (Array.isArray(data)) {
        checkCollectionSize(data.length, limits, where);
        return data.map((item) => fromJson(item, limits, where, depth + 1));
      } else {
        const entries = Object.entries(data as Record<string, unknown>);
        checkCollectionSize(entries.length, limits, where);
        const map = new Map<string, Value>();
        for (const [key, item] of entries) map.set(key, fromJson(item, limits, where, depth + 1));
        return map;
      }
    default:
      return fail('SCRIPT_TYPE_MISMATCH', `A ${typeof data} cannot become a script value.`, where);
  }
}

/** Script value → JSON data. Maps become objects with sorted keys; error values become `{code, message}`. */
export function toJson(value: Value): JsonValue {
  if (value === null || typeof value !== 'object') return typeof value === 'number' && !Number.isFinite(value) ? null : value;
  if (Array.isArray(value)) return value.map(toJson);
  if (value instanceof ErrorValue) return { code: value.code, message: value.message };
  const result: { [key: string]: JsonValue } = {};
  for (const key of [...value.keys()].sort()) result[key] = toJson(value.get(key) as Value);
  return result;
}
