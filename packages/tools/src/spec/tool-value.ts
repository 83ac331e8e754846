/**
 * The values tools receive and return: plain, JSON-able data that crosses the
 * sandbox boundary as a copy. NeuroScript's int and float are both JS numbers;
 * the spec's declared type drives coercion (reference §2.3).
 */
import { ToolError } from '../errors/tool-error.ts';

/** A value a tool receives or returns. `null` is NeuroScript's nil. */
export type ToolValue = string | number | boolean | null | readonly ToolValue[] | { readonly [key: string]: ToolValue };

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

/**
 * Checks that `value` is plain data and returns a deep copy of it, with
 * `undefined` turned into nil. Throws `TOOL_RESULT_INVALID` for functions,
 * class instances, non-finite numbers and cycles, and `TOOL_RESULT_TOO_LARGE`
 * for lists and maps nested more than {@link MAX_TOOL_VALUE_DEPTH} levels,
 * naming where it was found.
 */
export function toToolValue(value: unknown, path = '$', seen: Set<object> = new Set()): ToolValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'object' && seen.size >= MAX_TOOL_VALUE_DEPTH) {
    // `seen` holds exactly the containers on the path from the root.
    throw new ToolError('TOOL_RESULT_TOO_LARGE', `value nested more than ${MAX_TOOL_VALUE_DEPTH} levels deep at ${path.length > 80 ? `${path.slice(0, 80)}…` : path}; keep values flatter`);
  }
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new ToolError('TOOL_RESULT_INVALID', `non-finite number ${String(value)} at ${path}`);
    return value;
  }
  if (typeof value === 'object') {
    if (seen.has(value)) throw new ToolError('TOOL_RESULT_INVALID', `cyclic value at ${path}`);
    seen.add(value);
    try {
      if (Array.isArray(value)) return value.map((item, index) => toToolValue(item, `${path}[${index}]`, seen));
      if (isToolMap(value)) {
        const copy: Record<string, ToolValue> = {};
        for (const [key, item] of Object.entries(value)) {
          // defineProperty, not assignment: a `__proto__` key must stay data.
          Object.defineProperty(copy, key, { value: toToolValue(item, `${path}.${key}`, seen), enumerable: true, writable: true, configurable: true });
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
