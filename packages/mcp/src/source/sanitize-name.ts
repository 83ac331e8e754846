/**
 * MCP names (`get-sum`, `read.file`, `2fa`) are free text; NeuroScript tool
 * and argument names are identifiers. This turns a list of names into
 * identifiers that stay distinct case-insensitively (tool lookup ignores case).
 */

/** One identifier for `name`: every character outside `[A-Za-z0-9_]` becomes `_`, a leading digit gets a `_` prefix. */
export function sanitizeName(name: string): string {
  const replaced = name.replace(/[^A-Za-z0-9_]/g, '_');
  if (replaced.length === 0) return '_';
  return /^[0-9]/.test(replaced) ? `_${replaced}` : replaced;
}

/**
 * Identifiers for `names`, in order, distinct ignoring case: the first of
 * colliding names keeps the plain form, later ones get `_2`, `_3`, …
 */
export function sanitizeNames(names: readonly string[]): string[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const base = sanitizeName(name);
    let candidate = base;
    for (let n = 2; taken.has(candidate.toLowerCase()); n += 1) candidate = `${base}_${n}`;
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}
