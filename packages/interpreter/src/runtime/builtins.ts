/**
 * Built-in functions (reference §1.7 "Built-in functions"): `len`, `typeof`,
 * `char`, `ord`, the `is_*` predicates, and the math functions the reference
 * parses but never implemented (`ln log sin cos tan asin acos atan`, see
 * docs/deviations.md). Names are case-insensitive and win over procedures.
 */
import { nilHint } from './nil-hint.ts';
import { describeValue, typedValue } from './render.ts';
import { fail, type Position } from './script-error.ts';
import { toNumeric } from './to-number.ts';
import { typeName } from './type-name.ts';
import { ErrorValue, type Value } from './value.ts';

/** A built-in: fixed arity, pure. */
interface Builtin {
  readonly arity: number;
  readonly run: (args: readonly Value[], where: Position | null) => Value;
}

function number(name: string, value: Value, where: Position | null): number {
  const result = toNumeric(value);
  if (result === undefined) return fail('SCRIPT_TYPE_MISMATCH', `${name}() needs a number, got ${typedValue(value)}.${nilHint([value])}`, where);
  return result;
}

/** A high surrogate: the only code unit that can start a two-unit rune. */
const HIGH_SURROGATE = /[\uD800-\uDBFF]/;

/** Rune (code point) count of a string. */
export function runeCount(text: string): number {
  // Without a high surrogate every code unit is one rune; the regular expression scans far faster than a loop.
  if (!HIGH_SURROGATE.test(text)) return text.length;
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

const math = (name: string, f: (x: number) => number): Builtin => ({ arity: 1, run: ([x], where) => f(number(name, x ?? null, where)) });
const is = (test: (v: Value) => boolean): Builtin => ({ arity: 1, run: ([v]) => test(v ?? null) });

const BUILTINS: Record<string, Builtin> = {
  len: {
    arity: 1,
    run: ([v]) => {
      if (typeof v === 'string') return runeCount(v);
      if (Array.isArray(v)) return v.length;
      if (v instanceof Map) return v.size;
      return v === null || v === undefined ? 0 : 1;
    },
  },
  typeof: { arity: 1, run: ([v]) => typeName(v ?? null) },
  char: {
    arity: 1,
    run: ([v], where) => {
      const code = number('char', v ?? null, where);
      if (!Number.isInteger(code) || code < 0 || code > 0x10ffff) return fail('SCRIPT_INVALID_ARGUMENT', `char() needs a code point between 0 and 1114111, got ${describeValue(v ?? null)}.`, where);
      // A surrogate is half of a UTF-16 pair, not a character: as a string it would be a lone half, which a
      // string literal's `\uD800` is refused for too. Refused like any other number that is no character.
      if (code >= 0xd800 && code <= 0xdfff) {
        return fail('SCRIPT_INVALID_ARGUMENT', `char() needs a code point that is not a UTF-16 surrogate (55296 to 57343, half of a pair), got ${describeValue(v ?? null)}; a character past 65535 is one code point (char(128512) is 😀).`, where);
      }
      return String.fromCodePoint(code);
    },
  },
  ord: {
    arity: 1,
    run: ([v], where) => {
      if (typeof v !== 'string' || v.length === 0) return fail('SCRIPT_INVALID_ARGUMENT', `ord() needs a non-empty string, got ${describeValue(v ?? null)}.`, where);
      return v.codePointAt(0) as number;
    },
  },
  ln: math('ln', Math.log),
  log: math('log', Math.log10),
  sin: math('sin', Math.sin),
  cos: math('cos', Math.cos),
  tan: math('tan', Math.tan),
  asin: math('asin', Math.asin),
  acos: math('acos', Math.acos),
  atan: math('atan', Math.atan),
  is_string: is((v) => typeof v === 'string'),
  is_number: is((v) => typeof v === 'number'),
  is_bool: is((v) => typeof v === 'boolean'),
  is_list: is(Array.isArray),
  is_map: is((v) => v instanceof Map),
  is_nil: is((v) => v === null),
  is_int: is((v) => typeof v === 'number' && Number.isInteger(v)),
  is_float: is((v) => typeof v === 'number' && !Number.isInteger(v)),
  is_error: is((v) => v instanceof ErrorValue || (v instanceof Map && v.has('code') && v.has('message'))),
  is_function: is(() => false),
  is_tool: is(() => false),
  is_event: is(() => false),
  is_timedate: is(() => false),
  is_fuzzy: is(() => false),
};

/** Looks up a built-in by name, case-insensitively. */
export function findBuiltin(name: string): Builtin | undefined {
  const key = name.toLowerCase();
  return Object.hasOwn(BUILTINS, key) ? BUILTINS[key] : undefined;
}

/**
 * Why a call of the built-in `name` (lower case, as the run names it) with
 * `count` arguments cannot run, or undefined when the count fits. One wording
 * for the run (`SCRIPT_ARGUMENT_COUNT`) and the check, which refuses such a
 * call before anything runs (`SCRIPT_FUNCTION_ARGUMENT_COUNT`).
 */
export function builtinArgumentCountProblem(name: string, builtin: Builtin, count: number): string | undefined {
  return count === builtin.arity ? undefined : `${name}() takes ${builtin.arity} argument${builtin.arity === 1 ? '' : 's'}, got ${count}.`;
}

/** Calls a built-in after checking its argument count. */
export function callBuiltin(name: string, builtin: Builtin, args: readonly Value[], where: Position | null): Value {
  const problem = builtinArgumentCountProblem(name, builtin, args.length);
  if (problem !== undefined) return fail('SCRIPT_ARGUMENT_COUNT', problem, where);
  return builtin.run(args, where);
}
