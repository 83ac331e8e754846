/**
 * The one wording of `SCRIPT_VARIABLE_UNSET`, shared by the check's warning
 * and the run's error, so a model sees the same fix whichever reports it.
 */
import { closestName } from './closest-name.ts';

/** Why reading `name` fails and how to fix it; `known` are the names the file and the run bind (for the did-you-mean). */
export function unsetVariableMessage(name: string, known: Iterable<string>, inHole: boolean): string {
  const meant = closestName(name, known);
  const fix = meant === undefined ? 'set it before reading it, or fix the name' : `did you mean '${meant}'? Otherwise set it before reading it`;
  // A {{name}} hole in a ```…``` or [[…]] string is often meant as text (a template for a tool).
  const text = inHole ? `; to keep {{${name}}} as text, write the string as '''…''', which has no holes` : '';
  return `Variable '${name}' is never set in this program, so it would read as nil: ${fix}${text}.`;
}
