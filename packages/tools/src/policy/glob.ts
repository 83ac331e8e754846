/**
 * The path glob matcher, used for scopes of `fs` and `memory` grants
 * (separator `/`) and for host labels of `net` grants (separator `.`).
 * Tool-name allow/deny patterns have their own rules (tool-pattern.ts).
 *
 * Semantics, exactly:
 * - `*` matches any run of characters inside one segment (never the separator);
 * - `**` as a whole segment matches zero or more whole segments, so
 *   `/data/**` matches `/data`, `/data/x` and `/data/x/y` but not `/database`,
 *   and `tool.**` matches every tool; `**` inside a segment (`a**`) matches
 *   any characters including separators;
 * - every other character matches itself; there are no `?`, classes or braces;
 * - the whole subject must match (anchored).
 *
 * Matching simulates an NFA (wildcard-matcher.ts), never a backtracking
 * RegExp, so its cost is linear in the subject for any pattern.
 */
import { compileWildcard, segmentPieces, type WildcardMatcher, type WildcardPiece } from './wildcard-matcher.ts';

/** Options of {@link compileGlob}. */
export interface GlobOptions {
  /** Segment separator: `.` for tool names, `/` for paths. */
  readonly separator: string;
  /** Match case-insensitively. */
  readonly ignoreCase?: boolean;
}

/** Compiles a glob into a matcher that runs in time linear in the subject's length (see wildcard-matcher.ts). */
export function compileGlob(pattern: string, options: GlobOptions): WildcardMatcher {
  const ignoreCase = options.ignoreCase === true;
  const separator = options.separator;
  const segments = (ignoreCase ? pattern.toLowerCase() : pattern).split(separator);
  const sep: WildcardPiece = { kind: 'char', char: separator };
  const anything: WildcardPiece = { kind: 'star', crossesSeparator: true };
  const pieces: WildcardPiece[] = [];
  for (let index = 0; index < segments.length; index += 1) {
    const segment = segments[index] as string;
    const first = index === 0;
    const last = index === segments.length - 1;
    if (segment === '**') {
      // `**` as a whole segment: zero or more whole segments.
      if (first && last) pieces.push(anything);
      else if (first) pieces.push({ kind: 'optional', pieces: [anything, sep] });
      else if (last) pieces.push({ kind: 'optional', pieces: [sep, anything] });
      else pieces.push(sep, { kind: 'optional', pieces: [anything, sep] });
      continue;
    }
    const previousWasGlobstar = index > 0 && segments[index - 1] === '**';
    if (!first && !previousWasGlobstar) pieces.push(sep);
    pieces.push(...segmentPieces(segment));
  }
  return compileWildcard(pieces, separator, ignoreCase);
}
/** True when `subject` matches the glob `pattern`. */
export function matchGlob(pattern: string, subject: string, options: GlobOptions): boolean {
  return compileGlob(pattern, options).test(subject);
}
