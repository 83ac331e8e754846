/**
 * Conversion between script values and JSON data, the only form values take
 * when they cross the isolate boundary (tool arguments and results, userdata,
 * orchestrator answers). Objects become maps; anything else JSON cannot hold
 * is refused by the host before it gets here. Objects are built with
 * `Object.fromEntries`, so every key — `__proto__` included — is an own data
 * property.
 */
import type { RunLimits } from './limits.ts';
import { fail, type Position } from './script-error.ts';
import { checkCollectionSize, checkStringLength, checkValueDepth, type ItemBudget, itemBudget, spendChars, spendItems } from './size-check.ts';
import { ErrorValue, sortedKeys, type Value } from './value.ts';

/** JSON data. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** JSON data → script value, enforcing the size limits on every string, list and map. */
export function fromJson(data: unknown, limits: RunLimits, where: Position | null, depth = 0): Value {
  if (data === null || data === undefined) return null;
  switch (typeof data) {
    case 'boolean':
    case 'number':
      return data;
    case 'string':
      checkStringLength(data.length, limits, where);
      return data;
    case 'object':
      checkValueDepth(depth, where);
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

/** What becomes of an infinity or NaN: null, or the caller's error (`onNonFinite` of {@link toJson}). */
type NonFinite = ((number: number) => never) | undefined;

function convert(value: Value, budget: ItemBudget, depth: number, onNonFinite: NonFinite): JsonValue {
  if (typeof value === 'string') {
    spendChars(budget, value.length);
    return value;
  }
  if (value === null || typeof value !== 'object') {
    if (typeof value !== 'number' || Number.isFinite(value)) return value;
    return onNonFinite === undefined ? null : onNonFinite(value);
  }
  if (value instanceof ErrorValue) return { code: value.code, message: value.message };
  checkValueDepth(depth, budget.where);
  if (Array.isArray(value)) {
    spendItems(budget, value.length);
    return value.map((item) => convert(item, budget, depth + 1, onNonFinite));
  }
  spendItems(budget, value.size);
  return Object.fromEntries(
    sortedKeys(value).map((key) => {
      spendChars(budget, key.length);
      return [key, convert(value.get(key) as Value, budget, depth + 1, onNonFinite)];
    }),
  );
}

/**
 * Script value → JSON data. Maps become objects with sorted keys; error values
 * become `{code, message}`; infinite and NaN numbers become null, or call
 * `onNonFinite`, which throws (a tool call's arguments refuse them). Visits at most
 * `limits.valueItems` items and `MAX_VALUE_DEPTH` levels, and `maxChars`
 * characters of text (`SCRIPT_VALUE_TOO_LARGE`): one string the script shares
 * many times is one value in the isolate but a copy each time in JSON.
 */
export function toJson(
  value: Value,
  limits: Pick<RunLimits, 'valueItems'> = { valueItems: Infinity },
  where: Position | null = null,
  maxChars = Infinity,
  onNonFinite?: (number: number) => never,
): JsonValue {
  return convert(value, itemBudget(limits, 'Converting this value to JSON', where, maxChars), 0, onNonFinite);
}
