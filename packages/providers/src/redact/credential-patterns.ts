/**
 * The credential-looking patterns a redactor scrubs besides the configured
 * keys (`Bearer …`, `x-api-key: …`, `?key=…`), in two forms: replaced in one
 * string (`scrubCredentialPatterns`), and as the ranges of a string they
 * replace (`credentialSpans`), which is what a streamed reply's chunks need:
 * a token split across chunks is whole only in their join, and each chunk's
 * piece of it is cut by where the range falls (`split-secrets.ts`).
 */

/** A range `[start, end)` of a string. */
export type Span = readonly [number, number];

/**
 * Each pattern's capture groups are what stays (the header name, `Bearer `),
 * consecutive from the start of the match; the rest of the match is the
 * credential. A credential ends at white space, a quote or a separator, none
 * of which is in `[REDACTED]`, so a credential never starts or ends inside
 * a marker an earlier replacement left.
 */
const PATTERNS: readonly { pattern: RegExp; kept: number }[] = [
  // Authorization: Bearer <token>
  { pattern: /\b(Bearer\s+)[^\s"',;]+/gi, kept: 1 },
  // x-api-key: <key>, "x-goog-api-key":"<key>", api_key=<key>, authorization: <raw key>
  { pattern: /\b(x-api-key|x-goog-api-key|api[-_]?key|authorization)(["']?\s*[:=]\s*["']?)(?!Bearer\s)[^\s"',;&]+/gi, kept: 2 },
  // ?key=<key> in URLs (Gemini's query-string authentication)
  { pattern: /([?&](?:key|api_key|apikey)=)[^&#\s"']+/gi, kept: 1 },
];

/**
 * A string none of the patterns can match: each needs `bearer`, an `api…key`,
 * `authorization` or `key=`. Testing this once spares the three replaces for
 * the ordinary strings (ids, model names, text) that make up most payloads.
 */
const MAY_HOLD_CREDENTIAL = /bearer|api[-_]?key|authorization|key=/i;

/** `$1…$n` then the marker: what `String.replace` puts for a match of a pattern keeping `kept` groups. */
const replacement = (kept: number, mark: string): string => Array.from({ length: kept }, (_, index) => `$${index + 1}`).join('') + mark;

/** Replaces the credential of every match of each pattern in turn by `mark`. */
export function scrubCredentialPatterns(value: string, mark: string): string {
  if (!MAY_HOLD_CREDENTIAL.test(value)) return value;
  let result = value;
  for (const { pattern, kept } of PATTERNS) result = result.replace(pattern, replacement(kept, mark));
  return result;
}

/**
 * The ranges of `value` that `scrubCredentialPatterns` replaces once
 * `secrets` (sorted, disjoint: the configured keys found in `value`) are
 * replaced by `mark`, merged with them: replacing each range of the result by
 * `mark` gives what the redactor's `text` gives. The patterns run in turn on
 * the text the earlier ones left, as `scrubCredentialPatterns` runs them, so
 * a match is found in that text and mapped back to `value` (a marker there
 * stands for the whole range it replaced). `matches`, when given, receives
 * each match whole, the part kept included (`Authorization: Bearer eyJ…`).
 */
export function credentialSpans(value: string, secrets: readonly Span[], mark: string, matches?: Span[]): Span[] {
  let spans = [...secrets];
  let current = withMarks(value, spans, mark);
  if (!MAY_HOLD_CREDENTIAL.test(current.text)) return spans;
  for (const { pattern, kept } of PATTERNS) {
    const found: Span[] = [];
    for (const match of current.text.matchAll(pattern)) {
      let start = match.index;
      for (let group = 1; group <= kept; group++) start += match[group]!.length;
      const end = toValue(match.index + match[0].length, true, spans, current.marks, mark);
      found.push([toValue(start, false, spans, current.marks, mark), end]);
      matches?.push([toValue(match.index, false, spans, current.marks, mark), end]);
    }
    if (found.length === 0) continue;
    spans = mergeSpans([...spans, ...found]);
    current = withMarks(value, spans, mark);
  }
  return spans;
}

/** Sorts ranges and joins those that overlap (not those that only touch: two markers side by side stay two). */
export function mergeSpans(spans: readonly Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: [number, number][] = [];
  for (const [from, to] of sorted) {
    const last = merged.at(-1);
    if (last !== undefined && from < last[1]) last[1] = Math.max(last[1], to);
    else merged.push([from, to]);
  }
  return merged;
}

/** `value` with each of `spans` replaced by `mark`, and where each marker starts in it. */
function withMarks(value: string, spans: readonly Span[], mark: string): { text: string; marks: number[] } {
  if (spans.length === 0) return { text: value, marks: [] };
  let text = '';
  let at = 0;
  const marks: number[] = [];
  for (const [from, to] of spans) {
    text += value.slice(at, from);
    marks.push(text.length);
    text += mark;
    at = to;
  }
  return { text: text + value.slice(at), marks };
}

/**
 * Where `position` of the marked text is in the original: past a marker it
 * is shifted by what the marker replaced. One inside a marker (which the
 * patterns never give, see `PATTERNS`) takes the whole range the marker
 * stands for, so a range mapped back never cuts a secret in two.
 */
function toValue(position: number, isEnd: boolean, spans: readonly Span[], marks: readonly number[], mark: string): number {
  let shift = 0;
  for (const [index, start] of marks.entries()) {
    const [from, to] = spans[index]!;
    if (start + mark.length <= position) {
      shift = to - (start + mark.length);
      continue;
    }
    if (isEnd ? start < position : start <= position) return isEnd ? to : from;
    break;
  }
  return position + shift;
}
