/**
 * What a plugin threw, as text a person reads. JavaScript lets a module or a
 * factory throw anything; `String(value)` says `[object Object]` for an
 * object, `undefined` for nothing, and throws itself for an object without
 * a prototype. An Error gives its message, text is shown as it is, and
 * anything else is described (objects as Node's inspector shows them).
 */
import { inspect } from 'node:util';

/** How much of a thrown object is shown: enough to name what went wrong, not a dump. */
const INSPECT = { depth: 2, breakLength: Infinity, maxArrayLength: 10, maxStringLength: 200 } as const;

/** The text of `thrown`: never empty, never `[object Object]`. */
export function thrownText(thrown: unknown): string {
  if (thrown instanceof Error) return thrown.message !== '' ? thrown.message : `${thrown.name} with no message`;
  if (typeof thrown === 'string') return thrown !== '' ? thrown : 'an empty string, thrown instead of an Error';
  if (thrown === undefined || thrown === null) return `${String(thrown)}, thrown instead of an Error, with no message`;
  if (typeof thrown !== 'object' && typeof thrown !== 'function') return `${typeof thrown} ${String(thrown)}, thrown instead of an Error`;
  try {
    // An Error from another realm, or an object shaped like one: its message says it.
    const message = (thrown as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '') return message;
    return `an object thrown instead of an Error: ${inspect(thrown, INSPECT)}`;
  } catch {
    // A getter or a proxy that throws as it is read.
    return 'an object thrown instead of an Error, that cannot be shown';
  }
}
