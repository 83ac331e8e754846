/**
 * The options check of the pack factories (`createFileSystemTools`,
 * `createMemoryTools`, …), `createDefaultRegistry` and `defineToolPack`: a misspelt option is
 * ignored, and a limit that is not a whole number (`'1mb'`) compares false
 * with every size, so the bound is lifted without a word. Both are refused,
 * `TOOL_SPEC_INVALID` naming the factory and the option.
 */
import type { ToolErrorCode } from '../errors/error-codes.ts';
import { ToolError } from '../errors/tool-error.ts';
import { meantOption } from '../registry/suggest-names.ts';

/**
 * What a factory's options may hold: each field's kind (`count`: a whole number, `min` its least value; `flag`: true
 * or false; `methods`: an object with these methods, such as a store or a clock, `what` naming it in the message).
 */
export type PackOptionKinds = Readonly<
  Record<string, { readonly kind: 'count'; readonly min: number } | { readonly kind: 'flag' } | { readonly kind: 'other' } | { readonly kind: 'methods'; readonly what: string; readonly names: readonly string[] }>
>;

/** A whole number of at least `min` (1 for a time or a size that must allow something, 0 where 0 means none). */
export const count = (min = 0) => ({ kind: 'count', min }) as const;
/** True or false (`'yes'` or `1` would read as false where the code tests `=== true`). */
export const flag = { kind: 'flag' } as const;
/** A field checked by its own code (a root, a function). */
export const other = { kind: 'other' } as const;
/**
 * An object with the methods `names` (a store, a clock): one without them (the whole `openSqliteStore()` result
 * given as its `.memory`) was taken, and every tool call then failed on a JavaScript error inside the tool.
 */
export const methods = (what: string, ...names: string[]) => ({ kind: 'methods', what, names }) as const;

/** The first of `names` that `value` lacks as a method, or `undefined` when it has them all. */
function missingMethod(value: unknown, names: readonly string[]): string | undefined {
  if (typeof value !== 'object' || value === null) return names[0];
  return names.find((name) => typeof (value as Record<string, unknown>)[name] !== 'function');
}

const shown = (value: unknown): string => (typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value)));

/**
 * Throws `TOOL_SPEC_INVALID` (or `code`) for `factory`'s `options` when they are no object, hold a field not in
 * `kinds`, or a count, flag or object with methods that is not one. The message starts with `call`, by default
 * `factory()`.
 */
export function checkPackOptions(factory: string, options: unknown, kinds: PackOptionKinds, call = `${factory}()`, code: ToolErrorCode = 'TOOL_SPEC_INVALID'): void {
  const invalid = (why: string) => new ToolError(code, `${call}: ${why}`);
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw invalid(`its options are an object (${Object.keys(kinds).join(', ')}), got ${shown(options)}`);
  const fields = Object.keys(kinds);
  for (const [field, value] of Object.entries(options)) {
    const kind = kinds[field];
    if (kind === undefined) {
      const meant = meantOption(field, fields);
      throw invalid(`unknown option '${field}'${meant === undefined ? '' : `; did you mean '${meant}'?`} (the options are ${fields.join(', ')})`);
    }
    if (kind.kind === 'count' && value !== undefined && (typeof value !== 'number' || !Number.isSafeInteger(value) || value < kind.min)) {
      throw invalid(`${field} must be a whole number >= ${kind.min}, got ${shown(value)}`);
    }
    if (kind.kind === 'flag' && value !== undefined && typeof value !== 'boolean') throw invalid(`${field} must be true or false, got ${shown(value)}`);
    if (kind.kind === 'methods' && value !== undefined) {
      const missing = missingMethod(value, kind.names);
      if (missing !== undefined) throw invalid(`${field} must be ${kind.what} (an object with ${kind.names.join(', ')}), got ${typeof value === 'object' && value !== null ? `an object without ${missing}()` : typeof value === 'function' ? 'a function' : shown(value)}`);
    }
  }
}
