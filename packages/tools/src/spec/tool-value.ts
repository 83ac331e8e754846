/**
 * The values tools receive and return: plain, JSON-able data that crosses the
 * sandbox boundary as a copy. NeuroScript's int and float are both JS numbers;
 * the spec's declared type drives coercion (reference §2.3).
 */
import { ToolError } from '../errors/tool-error.ts';
import { describeNotPlainData } from './not-plain-data.ts';

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
 * Checks that `value` is plain data and returns a deep copy of it: the one
 * rule for what a tool may return (README, "What a tool may return").
 * `undefined` (anywhere, and an array's holes) becomes nil and `-0` becomes
 * 0, as the program would see them after JSON; everything else that is not a
 * string, finite number, boolean, null, array or plain object is refused with
 * `TOOL_RESULT_INVALID` naming its kind and where it is, never its content:
 * non-finite numbers, BigInts, functions, symbols, cycles, Dates, Maps, Sets,
 * typed arrays and Buffers, objects with `toJSON` (not called) and other class
 * instances. Lists and maps nested more than {@link MAX_TOOL_VALUE_DEPTH}
 * levels are `TOOL_RESULT_TOO_LARGE`. Symbol-keyed and non-enumerable
 * properties are left out, as JSON leaves them. `checks`, when given, sees
 * every list's and map's size before it is copied and every string's and
 * key's length, and may throw to stop the copy there (`toBoundedToolValue`
 * bounds a result so).
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
    if (!Number.isFinite(value)) throw notPlainData(value, path);
    // JSON has no -0: the program sees 0, so the host (its journal, its redaction) holds 0 too.
    return value === 0 ? 0 : value;
  }
  if (typeof value === 'object') {
    if (seen.has(value)) throw new ToolError('TOOL_RESULT_INVALID', `a cycle at ${shownPath(path)}: the value refers back to one that holds it; return a tree (copy the shared part, or leave it out)`);
    seen.add(value);
    try {
      // A getter or a Proxy trap may throw while the value is read: the value is then the fault, named where it could
      // not be read (`unreadable`), not the code that returned it. Inline try blocks, no closure for each read: every
      // result of every call is copied here.
      let list: readonly unknown[] | undefined;
      let length = 0;
      let keys: string[] | undefined;
      try {
        if (Array.isArray(value)) {
          list = value;
          length = value.length;
        }
        // A plain object with a toJSON method is refused as a whole, not at its `toJSON` key: it meant to be converted.
        // Keys, not entries: `Object.entries` of a 5-million-key map took ~5× as long, and the count decides first.
        else if (isToolMap(value) && typeof value.toJSON !== 'function') keys = Object.keys(value);
      } catch (error) {
        throw unreadable(path, error);
      }
      if (list !== undefined) {
        // Counted before a single element is copied: the length is known at once.
        checks?.collection(length, 'list', path);
        // A loop, not `map`: `map` keeps an array's holes, and a hole is nil like `undefined`.
        const copy: ToolValue[] = new Array<ToolValue>(length);
        for (let index = 0; index < length; index += 1) {
          const itemPath = `${path}[${index}]`;
          let item: unknown;
          try {
            item = list[index];
          } catch (error) {
            throw unreadable(itemPath, error);
          }
          copy[index] = toToolValue(item, itemPath, seen, checks);
        }
        return copy;
      }
      if (keys !== undefined) {
        const map = value as ToolMap;
        checks?.collection(keys.length, 'map', path);
        const copy: Record<string, ToolValue> = {};
        for (const key of keys) {
          const keyPath = `${path}.${key}`;
          checks?.text(key.length, keyPath);
          let item: unknown;
          try {
            item = map[key];
          } catch (error) {
            throw unreadable(keyPath, error);
          }
          const copied = toToolValue(item, keyPath, seen, checks);
          // A `__proto__` key must stay data: assigned, it would set the copy's prototype. Any other key is assigned
          // (defineProperty for every key made a large result's copy about twice as slow).
          if (key === '__proto__') Object.defineProperty(copy, key, { value: copied, enumerable: true, writable: true, configurable: true });
          else copy[key] = copied;
        }
        return copy;
      }
    } finally {
      seen.delete(value);
    }
  }
  let refused: ToolError;
  try {
    refused = notPlainData(value, path);
  } catch (error) {
    throw unreadable(path, error);
  }
  throw refused;
}

/** At most this much of what a getter or trap threw goes into the message. */
const MAX_THROWN_DETAIL = 200;

/**
 * `TOOL_RESULT_INVALID` naming `path`, where reading the value threw: a
 * getter or a Proxy trap of it. The value is what is wrong (no plain data
 * throws when read), not the code that made it.
 */
function unreadable(path: string, error: unknown): ToolError {
  return new ToolError('TOOL_RESULT_INVALID', `the value could not be read at ${shownPath(path)}: a getter or a Proxy trap threw (${thrownMessage(error)}); return plain data — copy the values out into plain objects and arrays first`);
}

/** What a getter or trap threw, in words, cut short; reading it may throw too (a Proxy thrown). */
function thrownMessage(error: unknown): string {
  try {
    const text = error instanceof Error ? error.message : typeof error === 'string' ? error : `a thrown ${typeof error}`;
    return text.length > MAX_THROWN_DETAIL ? `${text.slice(0, MAX_THROWN_DETAIL)}…` : text;
  } catch {
    return 'a value that cannot be read either';
  }
}

/** `TOOL_RESULT_INVALID` for a value that is not plain data, naming its kind and where it is. */
function notPlainData(value: unknown, path: string): ToolError {
  const { kind, fix } = describeNotPlainData(value);
  return new ToolError('TOOL_RESULT_INVALID', `${kind} at ${shownPath(path)} is not plain data; ${fix}`);
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
