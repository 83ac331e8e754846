/**
 * The prepared programs `prepare` returned in this process, deep-frozen, so
 * `execute` can run one without copying and re-validating it: frozen, it is
 * still exactly what was checked. Anything else handed to `execute` (a
 * prepared program read back from a store, or built by hand) is copied and
 * validated as before (`validatePrepared`).
 */
import type { PreparedProgram } from './run-types.ts';

const checked = new WeakSet<object>();

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const key in value) deepFreeze((value as Record<string, unknown>)[key]);
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
