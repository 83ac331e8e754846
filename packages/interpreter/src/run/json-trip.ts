/**
 * What the isolate will see of a run's globals after the JSON trip into the
 * sandbox. The host compiles the program against exactly that: a global JSON
 * cannot carry (an `undefined`, a function, a symbol, an object whose
 * `toJSON` gives `undefined`) arrives not at all. What JSON refuses outright
 * (a cycle, a BigInt) is passed on as it is, for the pool to refuse as before
 * (`SANDBOX_INVALID_REQUEST`). (Limits are made JSON-safe by `runLimits`.)
 */

/** `value` after `JSON.stringify` and `JSON.parse`, or `value` itself when JSON refuses it. */
function afterJsonTrip<T>(value: T): T {
  try {
    return JSON.parse(JSON.stringify(value)) as T;
  } catch {
    return value;
  }
}

/** Whether JSON may drop or change a global's top-level value (only the names decide what the code compiles against). */
function mayNotSurvive(value: unknown): boolean {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return true;
  return typeof value === 'object' && value !== null && typeof (value as { toJSON?: unknown }).toJSON === 'function';
}

/** The globals as the isolate receives them (the same object in the usual case: plain JSON values). */
export function globalsAsSent<T extends Readonly<Record<string, unknown>>>(globals: T): T {
  return Object.values(globals).some(mayNotSurvive) ? afterJsonTrip(globals) : globals;
}
