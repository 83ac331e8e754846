/**
 * `closestName(typed, known)`: the known name a typo most likely meant
 * (`--scirpt` → `--script`, `rnu` → `run`), so a usage error can say
 * "did you mean …?". Kept here, without a workspace package, because the
 * dispatcher runs before any command module loads.
 */

/** Edit distance with adjacent transpositions (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/** The nearest of `known` to `typed` (at most 2 edits, and fewer than half its length), or undefined. */
export function closestName(typed: string, known: Iterable<string>): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(typed.toLowerCase(), name.toLowerCase());
    if (distance <= 2 && distance * 2 < typed.length && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
