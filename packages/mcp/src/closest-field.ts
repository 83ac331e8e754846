/**
 * The known field an unknown one was likely meant as (`library` →
 * `libraries`, `comand` → `command`), for the "did you mean" of an unknown
 * field, in the inputs of AskLoop's own tools and in a server's settings.
 */
import { editDistance } from '@askloop/tools';

/** How far (edits, ignoring case) an unknown key may be from a known one to be suggested: `library` → `libraries` is 3. */
const SUGGESTION_DISTANCE = 3;

/** The closest of `known` to `key`, within {@link SUGGESTION_DISTANCE} edits ignoring case, or undefined. */
export function closestField(key: string, known: readonly string[]): string | undefined {
  const [closest] = known
    .map((name) => ({ name, distance: editDistance(key.toLowerCase(), name.toLowerCase()) }))
    .filter((entry) => entry.distance <= SUGGESTION_DISTANCE)
    .sort((a, b) => a.distance - b.distance);
  return closest?.name;
}
