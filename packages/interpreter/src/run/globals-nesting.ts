/**
 * The nesting limit on a run's globals (`userdata` and the rest), checked in
 * the host before they are sent. The isolate refuses a global nested more
 * than `MAX_VALUE_DEPTH` levels when it reads it (`SCRIPT_VALUE_TOO_LARGE`),
 * but the JSON copy into the sandbox comes first and `JSON.stringify`
 * recurses: a `--userdata` nested 4,500 levels overflowed the host's stack
 * there, and the run failed with an untyped "request.input is not JSON data:
 * Maximum call stack size exceeded". This walk is iterative and stops at the
 * first container past the limit, so any depth gives the isolate's error.
 */
import { toErrorData } from '../evaluate/to-error-data.ts';
import { checkValueDepth, type ScriptErrorData } from '../runtime/index.ts';

/**
 * The run's error when a global nests lists and maps more than
 * `MAX_VALUE_DEPTH` levels deep — the isolate's own (code, message, no
 * line) — or undefined. Never recurses, whatever the depth.
 */
export function globalsNestingError(globals: Readonly<Record<string, unknown>>): ScriptErrorData | undefined {
  // Each container is walked once: exact for JSON data (a tree). A cycle, or a value with `toJSON` (a Date,
  // copied as what that returns), is left to the JSON copy and the isolate's own check, as before.
  const seen = new Set<object>();
  const pending: { value: unknown; depth: number }[] = Object.values(globals).map((value) => ({ value, depth: 0 }));
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, depth } = next;
    if (typeof value !== 'object' || value === null || seen.has(value) || typeof (value as { toJSON?: unknown }).toJSON === 'function') continue;
    seen.add(value);
    try {
      // The isolate's check, so the error reads exactly as it does when the isolate reads the global.
      checkValueDepth(depth, null);
    } catch (error) {
      return toErrorData(error);
    }
    for (const item of Array.isArray(value) ? value : Object.values(value)) pending.push({ value: item, depth: depth + 1 });
  }
  return undefined;
}
