/**
 * Text forms of values. One rendering everywhere (emit, whisper, `+`
 * concatenation, interpolation, map keys) so output is deterministic
 * (reference §6 lists three inconsistent Go renderings; see
 * docs/deviations.md):
 * - `toText`: the reference's `lang.ToString` — strings raw, nil as `""`.
 * - `renderValue`: the form inside containers — strings JSON-quoted, nil as
 *   `nil`, lists `[1, "a"]`, maps `{"a": 1}` with keys in sorted order.
 */
import { formatNumber } from './format-number.ts';
import { ErrorValue, sortedKeys, type Value } from './value.ts';

/** A value as top-level text (emit, whisper, concatenation, interpolation, map keys). */
export function toText(value: Value): string {
  if (typeof value === 'string') return value;
  if (value === null) return '';
  return renderValue(value);
}

/** A value as it appears inside a rendered list or map. */
export function renderValue(value: Value): string {
  if (value === null) return 'nil';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return formatNumber(value);
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      if (Array.isArray(value)) return '[' + value.map(renderValue).join(', ') + ']';
      if (value instanceof ErrorValue) return 'error: ' + value.message;
      return '{' + sortedKeys(value).map((key) => JSON.stringify(key) + ': ' + renderValue(value.get(key) ?? null)).join(', ') + '}';
  }
}
