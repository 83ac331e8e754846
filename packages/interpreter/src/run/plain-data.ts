/**
 * The copy of what a tool bridge or the `ask` orchestrator hands back, before
 * it crosses into the sandbox: plain data only, by the rule of
 * `@askloop/tools`' `toToolValue` ("What a tool may return" in its README).
 * The tool host has applied that rule already, so its results pass through
 * unchanged; this copy holds every other bridge (an embedder's own, a replay)
 * and the orchestrator to the same rule instead of JSON's, which turned NaN
 * into nil, a Map into `{}` and a class instance into its fields without a word.
 * The interpreter imports no package of ours (DESIGN.md), so the rule is
 * written here a second time: keep the texts the same as the tools
 * package's `not-plain-data.ts`; the controller's `tool-result-kinds` test
 * runs every kind through both.
 */
import { MAX_VALUE_DEPTH, type JsonValue } from '../runtime/index.ts';

/** Paths hold map keys, which may be long: a message keeps only their first 80 characters. */
function shownPath(path: string): string {
  return path.length > 80 ? `${path.slice(0, 80)}…` : path;
}

/** Why a value is refused: `a Date at $.when is not plain data; return text, …` (its kind and place, never its content). */
export class NotPlainDataError extends Error {
  /** `nested` when lists and maps nest deeper than the isolate accepts; `invalid` otherwise. */
  readonly reason: 'invalid' | 'nested';
  constructor(reason: 'invalid' | 'nested', message: string) {
    super(message);
    this.name = 'NotPlainDataError';
    this.reason = reason;
  }
}

function className(value: object): string {
  try {
    const name: unknown = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
    return typeof name === 'string' && /^[A-Za-z_$][\w$]{0,60}$/.test(name) ? name : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The kind and fix of a value that is not plain data (the tools package's `describeNotPlainData`). */
function describe(value: unknown): { kind: string; fix: string } {
  switch (typeof value) {
    case 'number':
      return { kind: `a non-finite number (${String(value)})`, fix: 'return a finite number, or nil when there is none' };
    case 'bigint':
      return { kind: 'a BigInt', fix: 'return a number (when it is within ±2^53) or its decimal text' };
    case 'function':
      return { kind: 'a function', fix: 'leave it out of the result' };
    case 'symbol':
      return { kind: 'a symbol', fix: 'leave it out of the result' };
    case 'object':
      break;
    default:
      return { kind: `a ${typeof value}`, fix: 'return plain data' };
  }
  const object = value as object;
  if (object instanceof Date) return { kind: 'a Date', fix: 'return text, e.g. date.toISOString()' };
  if (object instanceof Map) return { kind: 'a Map', fix: 'return a plain object, e.g. Object.fromEntries(map)' };
  if (object instanceof Set) return { kind: 'a Set', fix: 'return an array, e.g. [...set]' };
  if (object instanceof String || object instanceof Number || object instanceof Boolean) {
    return { kind: `a ${className(object)} object`, fix: 'return the primitive, e.g. value.valueOf()' };
  }
  if (ArrayBuffer.isView(object) || object instanceof ArrayBuffer) return { kind: `a ${className(object)}`, fix: 'return text (e.g. base64) or a list of numbers' };
  if (typeof (object as { toJSON?: unknown }).toJSON === 'function') {
    return { kind: 'an object with a toJSON method', fix: 'toJSON is not called: return what it returns' };
  }
  return { kind: `an object of class ${className(object)}`, fix: 'return a plain object or array' };
}

function refuse(value: unknown, path: string): never {
  const { kind, fix } = describe(value);
  throw new NotPlainDataError('invalid', `${kind} at ${shownPath(path)} is not plain data; ${fix}`);
}

/** True for an object whose prototype is `Object.prototype` or null and that has no toJSON method: a map the copy accepts. */
export function isPlainMap(value: object): value is Record<string, unknown> {
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

/**
 * A deep copy of `value` as JSON data: `undefined` and an array's holes
 * become null, `-0` becomes 0; anything else that is not a string, finite
 * number, boolean, null, array or plain object throws {@link NotPlainDataError}
 * naming its kind and path. Symbol-keyed and non-enumerable properties are
 * left out, as JSON leaves them.
 */
export function copyPlainData(value: unknown): JsonValue {
  const holders: object[] = [];
  // Where the walk is, kept as the keys and indexes on the way down: the path text is built only for a refusal,
  // not for every item (a string per item cost a large result half again the time of a JSON round trip).
  const steps: (string | number)[] = [];
  const path = (): string => steps.reduce<string>((text, step) => (typeof step === 'number' ? `${text}[${step}]` : `${text}.${step}`), '$');
  const copy = (item: unknown): JsonValue => {
    if (item === undefined || item === null) return null;
    if (typeof item === 'string' || typeof item === 'boolean') return item;
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) refuse(item, path());
      return item === 0 ? 0 : item;
    }
    if (typeof item !== 'object') refuse(item, path());
    if (holders.includes(item)) {
      throw new NotPlainDataError('invalid', `a cycle at ${shownPath(path())}: the value refers back to one that holds it; return a tree (copy the shared part, or leave it out)`);
    }
    if (holders.length >= MAX_VALUE_DEPTH) throw new NotPlainDataError('nested', `a value nested more than ${MAX_VALUE_DEPTH} levels deep at ${shownPath(path())}; keep values flatter`);
    if (!Array.isArray(item) && !isPlainMap(item)) refuse(item, path());
    holders.push(item);
    try {
      if (Array.isArray(item)) {
        const list: JsonValue[] = new Array<JsonValue>(item.length);
        for (let index = 0; index < item.length; index += 1) {
          steps.push(index);
          list[index] = copy(item[index]);
          steps.pop();
        }
        return list;
      }
      const map: Record<string, JsonValue> = {};
      for (const key of Object.keys(item)) {
        steps.push(key);
        const copied = copy(item[key]);
        // A `__proto__` key must stay data: assigned, it would set the copy's prototype.
        if (key === '__proto__') Object.defineProperty(map, key, { value: copied, enumerable: true, writable: true, configurable: true });
        else map[key] = copied;
        steps.pop();
      }
      return map;
    } finally {
      holders.pop();
    }
  };
  return copy(value);
}
