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

/** Up to `limit` names close to `name`: same last segment, or at most half the last segment's length in edits. */
export function suggestNames(name: string, names: readonly string[], limit = 3): string[] {
  const last = name.slice(name.lastIndexOf('.') + 1);
  return names
    .map((candidate) => ({ candidate, distance: editDistance(name, candidate), sameLast: candidate.endsWith(`.${last}`) }))
    .filter((entry) => entry.sameLast || entry.distance <= Math.max(1, Math.floor(last.length / 2)))
    .sort((a, b) => a.distance - b.distance || a.candidate.localeCompare(b.candidate))
    .slice(0, limit)
    .map((entry) => entry.candidate);
}
