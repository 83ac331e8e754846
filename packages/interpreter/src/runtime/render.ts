/**
 * Text forms of values. One rendering everywhere (emit, whisper, `+`
 * concatenation, interpolation, map keys) so output is deterministic
 * (reference §6 lists three inconsistent Go renderings; see
 * docs/deviations.md):
 * - `toText`: the reference's `lang.ToString` — strings raw, nil as `""`.
 * - `renderValue`: the form inside containers — strings JSON-quoted, nil as
 *   `nil`, lists `[1, "a"]`, maps `{"a": 1}` with keys in sorted order.
 *
 * Rendering has its own quota: the text grows piece by piece and stops as
 * soon as it passes the length limit, so a value whose halves are shared
 * (2^40 leaves in 40 cheap steps) fails at once instead of exhausting memory,
 * and nesting deeper than `MAX_VALUE_DEPTH` is refused.
 */
import { formatNumber } from './format-number.ts';
import { fail, type Position, ScriptError } from './script-error.ts';
import { checkValueDepth, MAX_ENGINE_STRING_LENGTH } from './size-check.ts';
import { typeName } from './type-name.ts';
import { ErrorValue, sortedKeys, type Value } from './value.ts';

/** How many characters of a value error messages show. */
const DESCRIBE_LENGTH = 200;

/** Thrown (and caught) when a description reaches its length. */
const TRUNCATED = Symbol('truncated');

interface RenderState {
  readonly parts: string[];
  length: number;
  readonly max: number;
  readonly where: Position | null;
  /** Stop quietly (for error messages) instead of failing. */
  readonly truncate: boolean;
}

function push(state: RenderState, text: string): void {
  state.length += text.length;
  if (state.length > state.max) {
    if (state.truncate) {
      state.parts.push(text.slice(0, Math.max(0, text.length - (state.length - state.max))));
      throw TRUNCATED;
    }
    fail('SCRIPT_VALUE_TOO_LARGE', `The text of a value would exceed ${state.max} characters (limit: stringLength); render smaller values.`, state.where);
  }
  state.parts.push(text);
}

function scalarText(value: null | boolean | number | string): string {
  if (value === null) return 'nil';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return formatNumber(value);
  return value ? 'true' : 'false';
}

function renderInto(value: Value, state: RenderState, depth: number): void {
  if (value === null || typeof value !== 'object') {
    push(state, scalarText(value));
    return;
  }
  if (value instanceof ErrorValue) {
    push(state, 'error: ' + value.message);
    return;
  }
  checkValueDepth(depth, state.where);
  if (Array.isArray(value)) {
    push(state, '[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) push(state, ', ');
      renderInto(value[i] as Value, state, depth + 1);
    }
    push(state, ']');
    return;
  }
  push(state, '{');
  let first = true;
  for (const key of sortedKeys(value)) {
    push(state, (first ? '' : ', ') + JSON.stringify(key) + ': ');
    first = false;
    renderInto(value.get(key) ?? null, state, depth + 1);
  }
  push(state, '}');
}

/**
 * A value as it appears inside a rendered list or map, at most `maxLength`
 * characters (`SCRIPT_VALUE_TOO_LARGE` beyond, reported at `where`).
 */
export function renderValue(value: Value, maxLength = Infinity, where: Position | null = null): string {
  if (value === null || typeof value !== 'object') return scalarText(value);
  const state: RenderState = { parts: [], length: 0, max: Math.min(maxLength, MAX_ENGINE_STRING_LENGTH), where, truncate: false };
  renderInto(value, state, 0);
  return state.parts.join('');
}

/**
 * A value as top-level text (emit, whisper, concatenation, interpolation, map
 * keys): strings raw, nil as `""`, at most `maxLength` characters.
 */
export function toText(value: Value, maxLength = Infinity, where: Position | null = null): string {
  if (typeof value === 'string') return value;
  if (value === null) return '';
  return renderValue(value, maxLength, where);
}

/** A value in a type error: `number 3`, `string "a"`; nil is just `nil` (its type and its text are one word). */
export function typedValue(value: Value): string {
  return value === null ? 'nil' : `${typeName(value)} ${describeValue(value)}`;
}

/** A value for an error message: its rendering, cut at 200 characters with `…`; never fails. */
export function describeValue(value: Value): string {
  const state: RenderState = { parts: [], length: 0, max: DESCRIBE_LENGTH, where: null, truncate: true };
  try {
    renderInto(value, state, 0);
  } catch (error) {
    // Cut at the length, or too deeply nested to show in full.
    if (error === TRUNCATED || error instanceof ScriptError) return state.parts.join('') + '…';
    throw error;
  }
  return state.parts.join('');
}
