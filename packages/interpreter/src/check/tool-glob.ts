/**
 * Glob patterns over canonical tool names. Both the pattern and the name are
 * canonicalised first: lower-cased, every leading `tool.` removed, then
 * `tool.` put back (so `Str.*` and `tool.str.*` are the same pattern).
 * - `*` matches any run of characters within one dot-separated segment;
 * - `**` matches any run of characters, dots included;
 * - a pattern that is exactly `*` or `**` matches every tool;
 * - every other character matches itself; the whole name must match.
 */

/** Canonical form of a tool name (reference §2.1): `tool.` + lower-cased name without leading `tool.`s. */
export function canonicalToolName(name: string): string {
  let rest = name.trim().toLowerCase();
  while (rest.startsWith('tool.')) rest = rest.slice(5);
  return `tool.${rest}`;
}

const cache = new Map<string, RegExp>();

function compile(pattern: string): RegExp {
  let compiled = cache.get(pattern);
  if (compiled) return compiled;
  const trimmed = pattern.trim();
  if (trimmed === '*' || trimmed === '**') {
    compiled = /^/;
  } else {
    const canonical = canonicalToolName(trimmed);
    let source = '';
    for (let index = 0; index < canonical.length; index += 1) {
      const character = canonical[index] as string;
      if (character === '*') {
        if (canonical[index + 1] === '*') {
          source += '.*';
          index += 1;
        } else {
          source += '[^.]*';
        }
      } else {
        source += character.replace(/[\\^$.|?+()[\]{}]/g, '\\$&');
      }
    }
    compiled = new RegExp(`^${source}$`);
  }
  if (cache.size > 1000) cache.clear();
  cache.set(pattern, compiled);
  return compiled;
}

/** True when `pattern` matches the tool `name` (both canonicalised as described above). */
export function matchToolGlob(pattern: string, name: string): boolean {
  return compile(pattern).test(canonicalToolName(name));
}
