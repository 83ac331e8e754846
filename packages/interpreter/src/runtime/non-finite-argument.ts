/**
 * A tool call whose arguments hold a number JSON has no form for: an
 * infinity or NaN, which overflowing arithmetic gives (V9). A tool's
 * arguments cross to the host as JSON, where such a number could only become
 * null, and the tool then said something unrelated ("needs argument 'num1'",
 * "sorts lists of only numbers"). The call is refused instead, naming the
 * tool, the argument, where inside it the number is and how to avoid it.
 */
import { fail, type Position } from './script-error.ts';
import { ErrorValue, sortedKeys, type Value } from './value.ts';

/** A path is shown up to this many characters, a map key in it up to 40. */
const MAX_PATH_SHOWN = 120;
const MAX_KEY_SHOWN = 40;

/**
 * The first infinity or NaN in `value` as `toJson` visits it (list items in
 * order, map keys sorted; an error value holds none), with its path as index
 * steps (`[0]["total"]`), or undefined. Called only after `toJson` met one,
 * so it visits no more than that conversion did (its depth and item budgets
 * hold here too).
 */
function findNonFinite(value: Value, path: string): { readonly path: string; readonly number: number } | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : { path, number: value };
  if (value === null || typeof value !== 'object' || value instanceof ErrorValue) return undefined;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const found = findNonFinite(value[index] as Value, `${path}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const key of sortedKeys(value)) {
    const shown = JSON.stringify(key.length > MAX_KEY_SHOWN ? `${key.slice(0, MAX_KEY_SHOWN)}…` : key);
    const found = findNonFinite(value.get(key) as Value, `${path}[${shown}]`);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The number as a program emits it (V9), with what it is. */
function named(number: number): string {
  if (Number.isNaN(number)) return 'NaN (not a number)';
  return number > 0 ? '+Inf (infinity)' : '-Inf (minus infinity)';
}

/**
 * Fails the call of `tool` (as the program wrote it) with
 * `SCRIPT_TOOL_ARGUMENTS` at `where`, naming the first infinity or NaN in
 * `args`: which argument, where inside it, and the fix. `toJson`'s handler
 * for such a number in a tool call's arguments.
 */
export function refuseNonFiniteArgument(tool: string, args: readonly Value[], where: Position | null): never {
  for (let index = 0; index < args.length; index++) {
    const found = findNonFinite(args[index] as Value, '');
    if (found === undefined) continue;
    const path = found.path.length > MAX_PATH_SHOWN ? `${found.path.slice(0, MAX_PATH_SHOWN)}…` : found.path;
    const what = path === '' ? `argument ${index + 1} is ${named(found.number)}` : `argument ${index + 1} holds ${named(found.number)} at ${path}`;
    const cause = Number.isNaN(found.number)
      ? 'NaN comes from arithmetic on an infinity (an infinity minus itself) or from a function outside its domain (ln(-1), acos(2))'
      : 'An infinity comes from arithmetic past the float range (beyond about ±1.8e308)';
    return fail(
      'SCRIPT_TOOL_ARGUMENTS',
      `${tool} ${what}, which no tool can take: tool arguments travel as JSON, which has no infinity or NaN. ` +
        `${cause}; check the number before the call (if x > -1e308 and x < 1e308 is false for +Inf, -Inf and NaN), or compute it from smaller numbers.`,
      where,
    );
  }
  return fail('SCRIPT_INTERNAL', `toJson found a number JSON cannot hold in a call of ${tool}, but no argument holds one.`, where);
}
