/**
 * "Did you mean" for a misspelt name: the closest of the known names, when it
 * is close enough to be the same word, for the unset-variable message and
 * `createSandboxPool`'s misspelt options. (The
 * tool packages' hints use `@askloop/tools`' own distance: that package must
 * not load the interpreter, and the CLI's dispatcher keeps one that loads no
 * package at all.)
 *
 * It runs on the host before any quota applies, for names a model wrote, so
 * it must stay cheap whatever the program: a name more than 2 letters longer
 * or shorter is never compared, and a comparison stops as soon as it is past
 * 2 edits (only the band of the table within 2 of its diagonal is filled).
 */

/** The most edits a suggestion may be away. */
const MAX_EDITS = 2;

/**
 * The edit distance between two strings with adjacent transpositions counted
 * as one edit (optimal string alignment): `pirce` is one edit from `price`,
 * as a typist would count it. Insertions, deletions and substitutions are of
 * UTF-16 units. Past `limit` the exact value is not computed: any answer
 * above `limit` means "further than that".
 */
export function editDistance(left: string, right: string, limit = Number.POSITIVE_INFINITY): number {
  if (Math.abs(left.length - right.length) > limit) return limit + 1;
  const width = right.length + 1;
  const far = limit + 1;
  // Three rows suffice: a transposition looks back two rows. Cells outside the band stay `far`.
  let before = new Array<number>(width).fill(far);
  let previous = Array.from({ length: width }, (_, index) => (index <= limit ? index : far));
  let current = new Array<number>(width).fill(far);
  for (let i = 1; i <= left.length; i += 1) {
    const from = Number.isFinite(limit) ? Math.max(1, i - limit) : 1;
    const to = Number.isFinite(limit) ? Math.min(right.length, i + limit) : right.length;
    // Only the band is written; the rows are reused, so the cells just outside it (which the next rows read) are reset.
    current[0] = i <= limit ? i : far;
    current[from - 1] = from === 1 ? (current[0] as number) : far;
    if (to + 1 < width) current[to + 1] = far;
    let rowBest = current[0] as number;
    for (let j = from; j <= to; j += 1) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      let best = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && left[i - 1] === right[j - 2] && left[i - 2] === right[j - 1]) best = Math.min(best, (before[j - 2] as number) + 1);
      current[j] = Math.min(best, far);
      rowBest = Math.min(rowBest, current[j] as number);
    }
    // Every way on from this row is already past the limit.
    if (rowBest > limit) return far;
    [before, previous, current] = [previous, current, before];
  }
  return previous[right.length] as number;
}

/**
 * The known name closest to `name` (case aside), or undefined when none is
 * within 2 edits and under half its length: `totl` → `total`, `pirce` →
 * `price`, but `x` → nothing from `y`. Ties go to the name that sorts first,
 * so the hint is stable.
 */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  // Under half the name's length, and never more than MAX_EDITS.
  const limit = Math.min(MAX_EDITS, Math.ceil(name.length / 2) - 1);
  if (limit < 1) return undefined;
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    if (candidate === name || Math.abs(candidate.length - name.length) > limit) continue;
    const distance = editDistance(lower, candidate.toLowerCase(), best === undefined ? limit : Math.min(limit, best.distance));
    if (distance > limit) continue;
    if (best === undefined || distance < best.distance || (distance === best.distance && candidate < best.name)) best = { name: candidate, distance };
  }
  return best?.name;
}
