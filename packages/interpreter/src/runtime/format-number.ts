/**
 * Number rendering as Go's `strconv.FormatFloat(v, 'f', -1, 64)` (reference
 * §1.6): shortest round-trip digits, never an exponent, no trailing `.0`.
 */

/** Renders a float64 the way the reference prints numbers. */
export function formatNumber(value: number): string {
  // The common case first: JavaScript writes integers below 1e21 without an exponent (and -0 as "0").
  if (Number.isInteger(value) && value < 1e21 && value > -1e21) return String(value);
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  if (Object.is(value, -0)) return '0';
  const text = String(value);
  const e = text.indexOf('e');
  if (e < 0) return text;
  return expandExponent(text.slice(0, e), Number(text.slice(e + 1)));
}

function expandExponent(mantissa: string, exponent: number): string {
  const negative = mantissa.startsWith('-');
  const unsigned = negative ? mantissa.slice(1) : mantissa;
  const dot = unsigned.indexOf('.');
  const digits = dot < 0 ? unsigned : unsigned.slice(0, dot) + unsigned.slice(dot + 1);
  const pointAt = (dot < 0 ? unsigned.length : dot) + exponent;
  let result: string;
  if (pointAt <= 0) result = '0.' + '0'.repeat(-pointAt) + digits;
  else if (pointAt >= digits.length) result = digits + '0'.repeat(pointAt - digits.length);
  else result = digits.slice(0, pointAt) + '.' + digits.slice(pointAt);
  return negative ? '-' + result : result;
}
