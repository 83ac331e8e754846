/**
 * "Did you mean" hints for unknown tool names: the closest canonical names by
 * edit distance, cheap enough for a few hundred tools.
 */

/** The Levenshtein distance between two strings (insertions, deletions and substitutions of UTF-16 units). */
export function editDistance(left: string, right: string): number {
  const previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i += 1) {
    let diagonal = previous[0] as number;
    previous[0] = i;
    for (let j = 1; j <= right.length; j += 1) {
      const above = previous[j] as number;
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      previous[j] = Math.min(above + 1, (previous[j - 1] as number) + 1, diagonal + cost);
      diagonal = above;
    }
  }
  return previous[right.length] as number;
}

/** A name's group and last segment: `tool.str.toupper` → `tool.str`, `toupper`. */
function split(name: string): { group: string; last: string } {
  const dot = name.lastIndexOf('.');
  return { group: name.slice(0, Math.max(0, dot)), last: name.slice(dot + 1) };
}

/** Whether two groups are spellings of one (`tool.string` and `tool.str`), not two groups that share a tool name. */
function closeGroups(left: string, right: string): boolean {
  const a = left.slice(left.indexOf('.') + 1);
  const b = right.slice(right.indexOf('.') + 1);
  return a.startsWith(b) || b.startsWith(a) || editDistance(a, b) <= Math.max(1, Math.floor(Math.min(a.length, b.length) / 2));
}

/** The length of the longest run of characters two strings share (`uppercase` and `toupper`: 5, `upper`). */
function commonRun(left: string, right: string): number {
  let best = 0;
  for (let i = 0; i < left.length; i += 1) {
    for (let j = 0; j < right.length; j += 1) {
      let length = 0;
      while (i + length < left.length && j + length < right.length && left[i + length] === right[j + length]) length += 1;
      if (length > best) best = length;
    }
  }
  return best;
}

/**
 * Up to `limit` names close to `name`, closest first: at most half the last
 * segment's length in edits; or the same tool in a group spelt alike
 * (`tool.string.ToUpper` → `tool.str.ToUpper`, but not `tool.fs.Read` →
 * `tool.capsule.Read`, another group's tool of the same name); or a tool of
 * the same group whose name shares a run of 5 characters (`Uppercase` →
 * `ToUpper`).
 */
export function suggestNames(name: string, names: readonly string[], limit = 3): string[] {
  const { group, last } = split(name);
  return names
    .map((candidate) => ({ candidate, distance: editDistance(name, candidate), ...split(candidate) }))
    .filter(
      (entry) =>
        entry.distance <= Math.max(1, Math.floor(last.length / 2)) ||
        (entry.last === last && closeGroups(entry.group, group)) ||
        (entry.group === group && commonRun(entry.last, last) >= 5),
    )
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, limit)
    .map((entry) => entry.candidate);
}

/**
 * The option a misspelt one (`denny`, `fss`) most likely meant: the first of `known` that differs from it only in
 * case or by at most 2 edits. For the options checks of `createPolicy` and the pack factories.
 */
export function meantOption(field: string, known: readonly string[]): string | undefined {
  return known.find((name) => name.toLowerCase() === field.toLowerCase() || editDistance(name, field) <= 2);
}
