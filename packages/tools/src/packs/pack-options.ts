/**
 * The options check of the pack factories (`createFileSystemTools`,
 * `createMemoryTools`, …), `createDefaultRegistry` and `defineToolPack`: a misspelt option is
 * ignored, and a limit that is not a whole number (`'1mb'`) compares false
 * with every size, so the bound is lifted without a word. Both are refused,
 * `TOOL_SPEC_INVALID` naming the factory and the option.
 */
import { ToolError } from '../errors/tool-error.ts';
import { meantOption } from '../registry/suggest-names.ts';

/** What a factory's options may hold: each field's kind (`count`: a whole number, `min` its least value; `flag`: true or false). */
export type PackOptionKinds = Readonly<Record<string, { readonly kind: 'count'; readonly min: number } | { readonly kind: 'flag' } | { readonly kind: 'other' }>>;

/** A whole number of at least `min` (1 for a time or a size that must allow something, 0 where 0 means none). */
export const count = (min = 0) => ({ kind: 'count', min }) as const;
/** True or false (`'yes'` or `1` would read as false where the code tests `=== true`). */
export const flag = { kind: 'flag' } as const;
/** A field checked by its own code (a store, a root, a function). */
export const other = { kind: 'other' } as const;

const shown = (value: unknown): string => (typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value)));

/**
 * Throws `TOOL_SPEC_INVALID` for `factory`'s `options` when they are no object, hold a field not in `kinds`, or a
 * count or flag that is not one. The message starts with `call`, by default `factory()`.
 */
export function checkPackOptions(factory: string, options: unknown, kinds: PackOptionKinds, call = `${factory}()`): void {
  const invalid = (why: string) => new ToolError('TOOL_SPEC_INVALID', `${call}: ${why}`);
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
  }
}
