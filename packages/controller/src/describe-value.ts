/**
 * How a value a caller gave looks in an error message: `null`, `a list`,
 * `an object`, `a function`, a string quoted (cut at 60 characters), or the
 * number or boolean itself. Used by the checks of `createAskLoop`'s options
 * and of each call's options.
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (typeof value === 'function') return 'a function';
  return typeof value === 'object' ? 'an object' : String(value);
}
