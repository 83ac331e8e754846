/**
 * NeuroScript run-time values (reference §1.6). Plain JavaScript data so the
 * evaluator stays fast inside the isolate and values copy across it as JSON:
 * nil is `null`, numbers are float64, lists are arrays, maps are `Map`s with
 * string keys. Containers are never mutated after they are built: `set` copies
 * the path it changes, which gives the reference's value semantics cheaply.
 */

/** An error value (`typeof` → `error`); never produced by a literal. */
export class ErrorValue {
  readonly code: string;
  readonly message: string;
  constructor(code: string, message: string) {
    this.code = code;
    this.message = message;
  }
}

/** A NeuroScript list: an array treated as immutable once built. */
export type ListValue = Value[];

/** A NeuroScript map: string keys, treated as immutable once built. */
export type MapValue = Map<string, Value>;

/** Every value a script can hold. */
export type Value = null | boolean | number | string | ListValue | MapValue | ErrorValue;

/** Whether `value` is a map. */
export function isMap(value: Value): value is MapValue {
  return value instanceof Map;
}

/** Whether `value` is a list. */
export function isList(value: Value): value is ListValue {
  return Array.isArray(value);
}

/** The keys of a map in the one order used for rendering and iteration (UTF-16 code unit order). */
export function sortedKeys(map: MapValue): string[] {
  return [...map.keys()].sort();
}
