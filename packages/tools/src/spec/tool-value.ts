/**
 * The values tools receive and return: plain, JSON-able data that crosses the
 * sandbox boundary as a copy. NeuroScript's int and float are both JS numbers;
 * the spec's declared type drives coercion (reference §2.3).
 */
import { ToolError } from '../errors/tool-error.ts';

/** A value a tool receives or returns. `null` is NeuroScript's nil. */
export type ToolValue = string | number | boolean | null | readonly ToolValue[] | { readonly [key: string]: ToolValue };

/**
 * What a copy by {@link toToolValue} reports as it goes, so a size limit can
 * stop it before the oversized part is walked; either method may throw.
 */
export interface ToolValueChecks {
  /** A list or map of `count` items at `path`, before any item is copied. */
  collection(count: number, kind: 'list' | 'map', path: string): void;
  /** A string or map key of `length` characters at `path`. */
  text(length: number, path: string): void;
}

/** A NeuroScript map value. */
export type ToolMap = { readonly [key: string]: ToolValue };

/** True for a plain object (a NeuroScript map), not an array or class instance. */
export function isToolMap(value: unknown): value is ToolMap {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** The NeuroScript `typeof` name of a value (reference §1.6): string, number, boolean, nil, list, map. */
export function typeName(value: unknown): string {
  if (value === null || value === undefined) return 'nil';
  if (Array.isArray(value)) return 'list';
  if (isToolMap(value)) return 'map';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return typeof value;
}

/**
 * How deeply lists and maps may nest in a tool's arguments or result: the
 * interpreter's own value-depth limit (100). It keeps every recursive walk
 * over tool values (this copy, equality, JSON text) far from the stack's end:
 * `tool.json.Parse` of 5,000 nested brackets overflowed the stack here.
 */
export const MAX_TOOL_VALUE_DEPTH = 100;

/** Paths hold map keys, which may be long: a message keeps only their first 80 characters. */
export function shownPath(path: string): string {
  return path.length > 80 ? `${path.slice(0, 80)}…` : path;
}

/**
 * Checks that `value` is plain data and returns a deep copy of it, with
 * `undefined` turned into nil. Throws `TOOL_RESULT_INVALID` for functions,
 * class instances, non-finite numbers and cycles, and `TOOL_RESULT_TOO_LARGE`
 * for lists and maps nested more than {@link MAX_TOOL_VALUE_DEPTH} levels,
 * naming where it was found. `checks`, when given, sees every list's and
 * map's size before it is copied and every string's and key's length, and
 * may throw to stop the copy there (`toBoundedToolValue` bounds a result so).
 */
export function toToolValue(value: unknown, path = '$', seen: Set<object> = new Set(), checks?: ToolValueChecks): ToolValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'object' && seen.size >= MAX_TOOL_VALUE_DEPTH) {
    // `seen` holds exactly the containers on the path from the root.
    throw new ToolError('TOOL_RESULT_TOO_LARGE', `value nested more than ${MAX_TOOL_VALUE_DEPTH} levels deep at ${shownPath(path)}; keep values flatter`);
  }
  if (typeof value === 'string') {
    checks?.text(value.length, path);
    return value;
  }
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new ToolError('TOOL_RESULT_INVALID', `non-finite number ${String(value)} at ${path}`);
    return value;
  }
  if (typeof value === 'object') {
    if (seen.has(value)) throw new ToolError('TOOL_RESULT_INVALID', `cyclic value at ${path}`);
    seen.add(value);
    try {
      if (Array.isArray(value)) {
        // Counted before a single element is copied: the length is known at once.
        checks?.collection(value.length, 'list', path);
        return value.map((item, index) => toToolValue(item, `${path}[${index}]`, seen, checks));
      }
      if (isToolMap(value)) {
        // Keys, not entries: `Object.entries` of a 5-million-key map took ~5× as long, and the count decides first.
        const keys = Object.keys(value);
        checks?.collection(keys.length, 'map', path);
        const copy: Record<string, ToolValue> = {};
        for (const key of keys) {
          const keyPath = `${path}.${key}`;
          checks?.text(key.length, keyPath);
          // defineProperty, not assignment: a `__proto__` key must stay data.
          Object.defineProperty(copy, key, { value: toToolValue(value[key], keyPath, seen, checks), enumerable: true, writable: true, configurable: true });
        }
        return copy;
      }
    } finally {
      seen.delete(value);
    }
  }
  throw new ToolError('TOOL_RESULT_INVALID', `unsupported ${describeForeign(value)} at ${path}; tools exchange plain JSON-able data only`);
}

function describeForeign(value: unknown): string {
  if (typeof value === 'object' && value !== null) return `object of class ${value.constructor?.name ?? 'unknown'}`;
  return typeof value;
}

/** Deep structural equality of two tool values (map key order does not matter). */
export function toolValuesEqual(left: ToolValue, right: ToolValue): boolean {
  if (left === right) return true;
  if (Array.isArray(left)) {
    return Array.isArray(right) && left.length === right.length && left.every((item, index) => toolValuesEqual(item, right[index] as ToolValue));
  }
  if (isToolMap(left) && isToolMap(right)) {
    const leftKeys = Object.keys(left);
    if (leftKeys.length !== Object.keys(right).length) return false;
    return leftKeys.every((key) => Object.hasOwn(right, key) && toolValuesEqual(left[key] as ToolValue, right[key] as ToolValue));
  }
  return false;
}
