/**
 * What a tool result (or argument) that is not plain data is called in the
 * error that refuses it, and how to fix it: "What a tool may return" in the
 * README. The message names the kind and the class, never the value itself
 * (a result may hold a secret the host has not yet hidden).
 *
 * The interpreter states the same rule for bridges that are not this tool
 * host (`packages/interpreter/src/run/plain-data.ts`; it may not import this
 * package): keep the two texts the same, the controller's
 * `tool-result-kinds` test runs every kind through both.
 */

/** The kind of a value `toToolValue` refuses, with the fix, for `… at <path>; <fix>`. */
export interface NotPlainData {
  /** `a Date`, `a non-finite number (NaN)`, `an object of class Point`. */
  readonly kind: string;
  /** What to return instead. */
  readonly fix: string;
}

/** The constructor's name of an object, or `unknown` (a proxy or odd prototype must not break the message). */
export function className(value: object): string {
  try {
    const name: unknown = (Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
    return typeof name === 'string' && /^[A-Za-z_$][\w$]{0,60}$/.test(name) ? name : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Describes a value that is neither nil, a string, a finite number, a boolean, a list nor a plain map. */
export function describeNotPlainData(value: unknown): NotPlainData {
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
