/**
 * The size check of a bridge's result, in the host, before it is copied as
 * JSON. The isolate enforces the same limits when it reads the result
 * (`fromJson`), but only after the host has JSON-encoded it twice: a bridge
 * returning a map of 2 million keys held the host's event loop for 9.7 s
 * before the run failed. Here a list's length and a map's key count are
 * checked before any of their items, and the walk stops at the first limit
 * crossed, with the error the isolate would have given.
 */
import type { RunLimits } from '../runtime/index.ts';
import { MAX_VALUE_DEPTH } from '../runtime/index.ts';
import { HostCallError } from './map-host-failure.ts';
import { isPlainMap } from './plain-data.ts';

/** Paths hold map keys, which may be long: the message keeps only their start. */
const PATH_SHOWN = 80;

/** `$[3].name`: where in the result the walk is, built only for an error (a walk that passes builds no strings). */
function pathText(steps: readonly (string | number)[]): string {
  const path = steps.reduce<string>((text, step) => (typeof step === 'number' ? `${text}[${step}]` : `${text}.${step}`), '$');
  return path.length > PATH_SHOWN ? `${path.slice(0, PATH_SHOWN)}…` : path;
}

function tooLarge(what: string, detail: string, steps: readonly (string | number)[], fix: string): never {
  throw new HostCallError({ code: 'SCRIPT_VALUE_TOO_LARGE', message: `${what} returned ${detail} at ${pathText(steps)}; ${fix}` });
}

/**
 * Throws `SCRIPT_VALUE_TOO_LARGE` (a {@link HostCallError}) when `value`
 * holds a string over `stringLength`, a list or map over `collectionSize`, or
 * lists and maps nested more than `MAX_VALUE_DEPTH` levels — what the isolate
 * refuses — naming `what` (e.g. `tool 'tool.x.y'`), the limit and where.
 * Anything that is not plain data is left to the copy that follows
 * (`copyPlainData`), which refuses it.
 */
export function checkToolResultSize(value: unknown, limits: Pick<RunLimits, 'stringLength' | 'collectionSize'>, what: string): void {
  // Containers on the path from the root (a cycle is the copy's to report), and the keys and indexes leading there.
  const path: object[] = [];
  const steps: (string | number)[] = [];
  const visit = (item: unknown): void => {
    if (typeof item === 'string') {
      if (item.length > limits.stringLength) tooLarge(what, `a string of ${item.length} characters`, steps, `over the limit of ${limits.stringLength} (limit: stringLength); call it on smaller values`);
      return;
    }
    if (typeof item !== 'object' || item === null || path.includes(item)) return;
    if (path.length >= MAX_VALUE_DEPTH) tooLarge(what, `a value nested more than ${MAX_VALUE_DEPTH} levels deep`, steps, 'keep values flatter');
    const list = Array.isArray(item);
    // Not a list or plain map (a Date, a Map, a typed array of millions of bytes): the copy refuses it at once, uncounted.
    if (!list && !isPlainMap(item)) return;
    // Counted before any item is visited: the one pass `Object.keys` makes is the cheapest count of a map's keys.
    const keys = list ? undefined : Object.keys(item);
    const count = list ? item.length : (keys as string[]).length;
    if (count > limits.collectionSize) tooLarge(what, `a ${list ? 'list' : 'map'} of ${count} items`, steps, `over the limit of ${limits.collectionSize} (limit: collectionSize); call it on smaller values`);
    path.push(item);
    for (let index = 0; index < count; index += 1) {
      const step = list ? index : (keys as string[])[index] as string;
      steps.push(step);
      visit(list ? item[index] : (item as Record<string, unknown>)[step]);
      steps.pop();
    }
    path.pop();
  };
  visit(value);
}
