/**
 * The prepared programs `prepare` returned in this process, deep-frozen, so
 * `execute` can run one without copying and re-validating it: frozen, it is
 * still exactly what was checked. Anything else handed to `execute` (a
 * prepared program read back from a store, or built by hand) is copied and
 * validated as before (`validatePrepared`).
 */
import type { PreparedProgram } from './run-types.ts';

const checked = new WeakSet<object>();

function deepFreeze(value: object): void {
  if (Object.isFrozen(value)) return;
  Object.freeze(value);
  // Arrays by index and only objects recursed into: a `for…in` over an array's keys as strings, and a call per
  // string or number, made this about a third slower (some 500 objects for a 2 KB program).
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) if (typeof item === 'object' && item !== null) deepFreeze(item);
    return;
  }
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'object' && item !== null) deepFreeze(item);
  }
}

/** Freezes `prepared` (the program and its libraries, all the way down) and remembers it as checked. */
export function rememberChecked(prepared: PreparedProgram): PreparedProgram {
  deepFreeze(prepared);
  checked.add(prepared);
  return prepared;
}

/** True when `prepared` is a program `prepare` returned (and so cannot have changed since its check). */
export function isChecked(prepared: unknown): prepared is PreparedProgram {
  return typeof prepared === 'object' && prepared !== null && checked.has(prepared);
}
