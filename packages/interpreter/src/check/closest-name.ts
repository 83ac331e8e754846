/**
 * "Did you mean" for a misspelt name: the closest of the known names, when it
 * is close enough to be the same word, for the unset-variable message. (The
 * tool packages' hints use `@askloop/tools`' own distance: that package must
 * not load the interpreter, and the CLI's dispatcher keeps one that loads no
 * package at all.)
 */

/**
 * The edit distance between two strings with adjacent transpositions counted
 * as one edit (optimal string alignment): `pirce` is one edit from `price`,
 * as a typist would count it. Insertions, deletions and substitutions are of
 * UTF-16 units.
 */
export function editDistance(left: string, right: string): number {
  // Three rows suffice: a transposition looks back two rows.
  let before = new Array<number>(right.length + 1).fill(0);
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  let current = new Array<number>(right.length + 1).fill(0);
  for (let i = 1; i <= left.length; i += 1) {
    current[0] = i;
    for (let j = 1; j <= right.length; j += 1) {
      const cost = left[i - 1] === right[j - 1] ? 0 : 1;
      let best = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
      if (i > 1 && j > 1 && left[i - 1] === right[j - 2] && left[i - 2] === right[j - 1]) best = Math.min(best, (before[j - 2] as number) + 1);
      current[j] = best;
    }
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
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    if (candidate === name) continue;
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance > 2 || distance * 2 >= name.length) continue;
    if (best === undefined || distance < best.distance || (distance === best.distance && candidate < best.name)) best = { name: candidate, distance };
  }
  return best?.name;
}
