/**
 * The hint a type error adds when one of its operands is nil. A nil an
 * operator or an index refuses is nearly always a map key that is not there
 * yet (`counts[w] + 1` before `counts[w]` is set: reading an absent key gives
 * nil), and "convert first" is no fix for that: the hint names the default.
 */
import type { Value } from './value.ts';

/**
 * " A nil here is usually …" when any of `values` is nil, else "". `fallback`
 * is the default the example reads the key with (`0` for arithmetic, `[]`
 * for an index).
 */
export function nilHint(values: readonly Value[], fallback = '0'): string {
  if (!values.includes(null)) return '';
  return ` A nil here is usually a map key that is absent (m[k] reads nil while m has no key k): read it with a default, tool.map.Get(m, k, ${fallback}), or set it before using it.`;
}
