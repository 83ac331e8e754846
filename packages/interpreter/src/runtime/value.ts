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

/**
 * Compares by code point, which is UTF-8 byte order (Go's `sort.Strings`, and
 * the order the tools sort map keys in): JavaScript's default compares UTF-16
 * units, which puts U+E000…U+FFFF after astral characters. Its own copy here:
 * this module runs inside the sandbox, which imports nothing.
 */
function compareCodePoints(left: string, right: string): number {
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) {
    const a = left.charCodeAt(index);
    const b = right.charCodeAt(index);
    if (a === b) continue;
    // A surrogate (D800–DFFF) is part of a code point above FFFF: it ranks above every other unit.
    return (a >= 0xd800 && a <= 0xdfff ? a + 0x10000 : a) - (b >= 0xd800 && b <= 0xdfff ? b + 0x10000 : b);
  }
  return left.length - right.length;
}

/** The keys of a map in the one order used for rendering and iteration (code point order, as the tools use). */
export function sortedKeys(map: MapValue): string[] {
  return [...map.keys()].sort(compareCodePoints);
}
