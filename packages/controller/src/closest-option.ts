/**
 * The option a misspelt one most likely meant, for the "did you mean" of the
 * options checks (`createAskLoop`'s, each call's): the nearest of `known` by
 * edit distance ignoring case, within `maxEdits`.
 */
import { editDistance } from '@askloop/tools';

/** The nearest of `known` to `name` within `maxEdits` edits (case ignored), or undefined. */
export function closestOption(name: string, known: readonly string[], maxEdits: number): string | undefined {
  const [closest] = known.filter((option) => editDistance(name.toLowerCase(), option.toLowerCase()) <= maxEdits).sort((a, b) => editDistance(name, a) - editDistance(name, b));
  return closest;
}
