/**
 * Argument coercion, following the reference's `coerceArg` table (reference
 * §2.3): strings stay strict (no number → string), ints accept integral
 * numbers and integral numeric strings, floats accept numbers and numeric
 * strings, bools accept booleans, numbers (≠ 0) and "true"/"false"/"1"/"0".
 * Nil handling (required vs optional, defaults) is the binder's job.
 */
import type { ToolValueType } from './tool-signature.ts';
import { isToolMap, typeName, type ToolValue } from './tool-value.ts';

/** The outcome of coercing one value: the coerced value, or what was expected. */
export type CoercionResult = { readonly ok: true; readonly value: ToolValue } | { readonly ok: false; readonly expected: string };

const NUMERIC_STRING = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function numberFrom(value: ToolValue): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && NUMERIC_STRING.test(value.trim())) return Number(value.trim());
  return undefined;
}

/**
 * Why a scalar is not taken as a string: the reference converts neither
 * numbers nor booleans. A list or a map needs no such word (nothing would
 * convert it), and a map's own hint is the binder's (named arguments).
 */
const NOT_CONVERTED: Readonly<Record<string, string>> = { number: ' (numbers are not converted)', boolean: ' (booleans are not converted)' };

/** Coerces a non-nil value to the declared type. Returns what was expected when it cannot. */
export function coerceArgument(value: ToolValue, type: ToolValueType): CoercionResult {
  switch (type) {
    case 'any':
      return { ok: true, value };
    case 'nil':
      return value === null ? { ok: true, value } : { ok: false, expected: 'nil' };
    case 'string':
      return typeof value === 'string' ? { ok: true, value } : { ok: false, expected: `a string${NOT_CONVERTED[typeof value] ?? ''}` };
    case 'int': {
      const number = numberFrom(value);
      if (number !== undefined && Number.isSafeInteger(number)) return { ok: true, value: number };
      return { ok: false, expected: 'an integer (or a string holding one)' };
    }
    case 'float':
    case 'number': {
      const number = numberFrom(value);
      if (number !== undefined && Number.isFinite(number)) return { ok: true, value: number };
      return { ok: false, expected: 'a number (or a string holding one)' };
    }
    case 'bool':
      if (typeof value === 'boolean') return { ok: true, value };
      if (typeof value === 'number') return { ok: true, value: value !== 0 };
      if (typeof value === 'string') {
        const lowered = value.trim().toLowerCase();
        if (lowered === 'true' || lowered === '1') return { ok: true, value: true };
        if (lowered === 'false' || lowered === '0') return { ok: true, value: false };
      }
      return { ok: false, expected: 'a boolean (or "true"/"false"/"1"/"0", or a number)' };
    case 'list':
      return Array.isArray(value) ? { ok: true, value } : { ok: false, expected: 'a list' };
    case 'map':
      return isToolMap(value) ? { ok: true, value } : { ok: false, expected: 'a map' };
    default:
      return { ok: false, expected: `a value of the unknown type ${String(type)}` };
  }
}

/** Describes a value for an error message: its type and a short rendering. */
export function describeValue(value: ToolValue): string {
  const rendered = JSON.stringify(value) ?? 'nil';
  const short = rendered.length > 40 ? `${rendered.slice(0, 37)}...` : rendered;
  return `${typeName(value)} ${short}`;
}
