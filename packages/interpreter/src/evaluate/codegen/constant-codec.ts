/**
 * The constant table `K` of a compiled program as JSON data. The host
 * generates the code and encodes each constant symbolically; the isolate
 * decodes them, resolving built-ins and globals in its own realm, so no
 * function object or host value ever needs to cross the boundary.
 */
import { findBuiltin, type Value } from '../../runtime/index.ts';

/** A number JSON cannot carry (it would read back as `null`, or as `0` for `-0`). */
export type SpecialNumber = 'NaN' | 'Infinity' | '-Infinity' | '-0';

/**
 * One entry of `K`: a string or JSON number as itself (also `true`, `false`
 * and `null`, which only a hand-built AST holds), a special number, a
 * built-in by its (lower-case) name, or a read-only global by its name.
 */
export type EncodedConstant =
  | string
  | number
  | boolean
  | null
  | { readonly number: SpecialNumber }
  | { readonly builtin: string }
  | { readonly global: string };

/** Encodes a literal constant (a string, or a number the source cannot hold); throws on anything else. */
export function encodeConstant(value: unknown): EncodedConstant {
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return value;
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return { number: 'NaN' };
    if (value === Infinity) return { number: 'Infinity' };
    if (value === -Infinity) return { number: '-Infinity' };
    if (Object.is(value, -0)) return { number: '-0' };
    return value;
  }
  throw new Error(`code generator: a constant of type ${typeof value} cannot be encoded`);
}

const SPECIAL: Readonly<Record<SpecialNumber, number>> = { NaN: Number.NaN, Infinity, '-Infinity': -Infinity, '-0': -0 };

/**
 * Decodes one constant in the isolate. Anything malformed is an interpreter
 * error (the host only encodes what `encodeConstant` and the tables produce).
 */
export function decodeConstant(encoded: unknown, globals: ReadonlyMap<string, Value>): unknown {
  if (encoded === null || typeof encoded !== 'object') {
    if (typeof encoded === 'string' || typeof encoded === 'number' || typeof encoded === 'boolean' || encoded === null) return encoded;
    throw new Error(`constant table: a ${typeof encoded} entry`);
  }
  const entry = encoded as Record<string, unknown>;
  if (typeof entry['number'] === 'string' && Object.hasOwn(SPECIAL, entry['number'])) return SPECIAL[entry['number'] as SpecialNumber];
  if (typeof entry['builtin'] === 'string') {
    const builtin = findBuiltin(entry['builtin']);
    if (builtin === undefined) throw new Error(`constant table: no built-in ${JSON.stringify(entry['builtin'])}`);
    return builtin;
  }
  if (typeof entry['global'] === 'string') {
    if (!globals.has(entry['global'])) throw new Error(`constant table: no global ${JSON.stringify(entry['global'])}`);
    return globals.get(entry['global']);
  }
  throw new Error('constant table: an entry of unknown kind');
}
