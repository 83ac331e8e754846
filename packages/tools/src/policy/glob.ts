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
 */

/** Options of {@link compileGlob}. */
export interface GlobOptions {
  /** Segment separator: `.` for tool names, `/` for paths. */
  readonly separator: string;
  /** Match case-insensitively. */
  readonly ignoreCase?: boolean;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

function segmentSource(segment: string, separator: string): string {
  let source = '';
  for (let index = 0; index < segment.length; index += 1) {
    if (segment[index] === '*') {
      if (segment[index + 1] === '*') {
        source += '.*';
        while (segment[index + 1] === '*') index += 1;
      } else {
        source += `[^${escapeRegExp(separator)}]*`;
      }
    } else {
      source += escapeRegExp(segment[index] as string);
    }
  }
  return source;
}

/** Compiles a glob into an anchored regular expression. */
export function compileGlob(pattern: string, options: GlobOptions): RegExp {
  const separator = escapeRegExp(options.separator);
  const segments = pattern.split(options.separator);
  let source = '';
  for (let index = 0; index < segments.length; index += 1) {
    const segment = segments[index] as string;
    const first = index === 0;
    const last = index === segments.length - 1;
    if (segment === '**') {
      if (first && last) source += '.*';
      else if (first) source += `(?:.*${separator})?`;
      else if (last) source += `(?:${separator}.*)?`;
      else source += `${separator}(?:.*${separator})?`;
      continue;
    }
    const previousWasGlobstar = index > 0 && segments[index - 1] === '**';
    if (!first && !previousWasGlobstar) source += separator;
    source += segmentSource(segment, options.separator);
  }
  return new RegExp(`^${source}$`, options.ignoreCase === true ? 'i' : '');
}

/** True when `subject` matches the glob `pattern`. */
export function matchGlob(pattern: string, subject: string, options: GlobOptions): boolean {
  return compileGlob(pattern, options).test(subject);
}
