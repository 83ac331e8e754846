/**
 * Allow and deny patterns on canonical tool names. The interpreter's static
 * check asks the same policy (the catalogue's `check`), so a program the
 * checker admits is judged the same way at run time:
 * - the pattern is canonicalised like a name: lower case, every leading
 *   `tool.` removed, `tool.` put back (`str.*` = `tool.str.*`, `*.length` =
 *   `tool.*.length`);
 * - a pattern that is exactly `*` or `**` matches every tool;
 * - `*` matches any run of characters within one dot-separated segment;
 * - `**` matches any run of characters, dots included;
 * - every other character matches itself; the whole name must match.
 * Matching is therefore case-insensitive. Patterns may only use letters,
 * digits, `_`, `.` and `*`, so a typo cannot silently match nothing.
 */
import { ToolError } from '../errors/tool-error.ts';
import { canonicalToolName } from '../spec/canonical-name.ts';
import { compileWildcard, segmentPieces } from './wildcard-matcher.ts';

/** A compiled allow/deny pattern. */
export interface ToolPattern {
  /** The canonical pattern text, e.g. `tool.str.*` (`**` for everything). */
  readonly pattern: string;
  matches(canonicalName: string): boolean;
}

/** Canonicalises a tool-name pattern. Throws `POLICY_PATTERN_INVALID` for characters other than letters, digits, `_`, `.` and `*`. */
export function canonicalToolPattern(pattern: string): string {
  const trimmed = pattern.trim().toLowerCase();
  if (trimmed === '*' || trimmed === '**') return '**';
  if (!/^[a-z0-9_.*]+$/.test(trimmed) || trimmed.split('.').some((segment) => segment === '')) {
    throw new ToolError('POLICY_PATTERN_INVALID', `tool pattern '${pattern}' must be dotted segments of letters, digits, _ and *, e.g. tool.str.*`);
  }
  return canonicalToolName(trimmed);
}

/** Compiles a tool-name pattern. */
export function compileToolPattern(pattern: string): ToolPattern {
  const canonical = canonicalToolPattern(pattern);
  // Linear-time matching (wildcard-matcher.ts): `*` stays inside a segment, `**` crosses dots.
  const expression = canonical === '**' ? { test: () => true } : compileWildcard(segmentPieces(canonical), '.');
  return Object.freeze({ pattern: canonical, matches: (canonicalName: string) => expression.test(canonicalToolName(canonicalName)) });
}
