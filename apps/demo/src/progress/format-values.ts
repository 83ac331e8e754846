/**
 * Small number and value formats shared by the progress lines, the summary
 * and `askloop show`: thousands separators, durations, dollars, and JSON cut
 * to a width.
 */
import { terminalSafe } from './terminal-safe.ts';

/** `12345` → `12,345` (fixed locale, so output is the same on every machine). */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** `1 tool call`, `4,315 tool calls`: a count with its noun, singular for one. */
export function formatCounted(value: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(value)} ${Math.round(value) === 1 ? singular : plural}`;
}

/** Milliseconds as `850 ms` or `1.4 s` / `2 min 5 s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/**
 * US dollars with four decimals (`$0.0012`): model calls are cheap, and cents would show 0. With `known` false (no
 * reply had a cost: the model has no prices), a cost of 0 is `unknown (no prices)`, since `$0.0000` reads as free.
 */
export function formatCost(usd: number, known = true): string {
  return !known && usd === 0 ? 'unknown (no prices)' : `$${usd.toFixed(4)}`;
}

/**
 * Cuts `text` to `width` characters with an ellipsis, after making it
 * terminal-safe and one line: a tab is a space (kept, it shifted a table's
 * columns), and the cut never falls inside a surrogate pair (half an emoji
 * printed as U+FFFD).
 */
export function oneLine(text: string, width: number): string {
  const flat = terminalSafe(text).replace(/\s*\n\s*/g, ' ⏎ ').replace(/\t/g, ' ');
  if (flat.length <= width) return flat;
  let end = Math.max(1, width - 1);
  const last = flat.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${flat.slice(0, end)}…`;
}

/** A value as compact JSON on one line, cut to `width`. */
export function compactJson(value: unknown, width: number): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return oneLine(text, width);
}

/** How long ago `iso` was, from `now` (ms since the epoch): `5 s`, `3 min`, `2 h`, `4 d`. */
export function formatAge(iso: string, now: number): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '?';
  const seconds = Math.max(0, Math.round((now - then) / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}
