/**
 * The one wording of `SCRIPT_VARIABLE_UNSET`, shared by the check's warning
 * and the run's error, so a model sees the same fix whichever reports it.
 */
import { closestName } from './closest-name.ts';

/**
 * How many different unset names of one program get a "did you mean": each
 * is a search through every name the program sets, on the host, before any
 * quota applies; a program with more unset names than this is not a typo.
 */
export const SUGGESTED_NAMES = 20;

/**
 * The globals an agent's turn binds (the language guide names them). A
 * program tried on its own (a host running it outside the loop) may be given
 * none of them: "set it" would be the wrong fix for these.
 */
const TURN_GLOBALS: ReadonlySet<string> = new Set(['userdata', 'sid', 'turn_index']);

/** Why reading `name` fails and how to fix it; `meant` is the name it most likely means, if any. */
export function unsetVariableMessage(name: string, meant: string | undefined, inHole: boolean): string {
  if (TURN_GLOBALS.has(name)) {
    return `Variable '${name}' is not bound in this run: an agent's turn binds userdata, sid and turn_index, but this run was given no global named '${name}'; give the run that global, or run the program as an agent's turn.`;
  }
  const fix = meant === undefined ? 'set it before reading it, or fix the name' : `did you mean '${meant}'? Otherwise set it before reading it`;
  // A {{name}} hole (or placeholder) is often meant as text: a template for a tool.
  const text = inHole ? `; to keep {{${name}}} as text, write the string as '''…''', which has no holes` : '';
  return `Variable '${name}' is never set in this program, so it would read as nil: ${fix}${text}.`;
}

/**
 * The messages of one program's unset names, each worked out once: the
 * closest of `known` (the names the file and the run bind) for the first
 * {@link SUGGESTED_NAMES} names, none after them.
 */
export function unsetVariableMessages(known: () => Iterable<string>): (name: string, inHole: boolean) => string {
  const meant = new Map<string, string | undefined>();
  return (name, inHole) => {
    if (!meant.has(name)) meant.set(name, meant.size < SUGGESTED_NAMES ? closestName(name, known()) : undefined);
    return unsetVariableMessage(name, meant.get(name), inHole);
  };
}
