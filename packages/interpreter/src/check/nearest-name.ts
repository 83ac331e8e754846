/** "Did you mean" suggestions for unknown tool names. */

function distance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    let diagonal = previous[0] as number;
    previous[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const above = previous[j] as number;
      previous[j] = Math.min(above + 1, (previous[j - 1] as number) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length] as number;
}

/**
 * The candidate closest to `name` by edit distance, or undefined when none is
 * close (more than a third of the name's length away). A candidate with the
 * same last segment (`tool.string.toupper` → `tool.str.toupper`) wins ties.
 */
export function nearestName(name: string, candidates: readonly string[]): string | undefined {
  const target = name.toLowerCase();
  const lastSegment = target.slice(target.lastIndexOf('.') + 1);
  let best: string | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    let score = distance(target, lower);
    if (lower.slice(lower.lastIndexOf('.') + 1) === lastSegment) score -= 0.5;
    if (score < bestScore) {
      bestScore = score;
      best = candidate;
    }
  }
  return bestScore <= Math.max(2, Math.floor(target.length / 3)) ? best : undefined;
}
