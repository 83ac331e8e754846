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

/** Where an unset name is read: in code, in a `{{…}}` hole of a string, or as a bare `{{name}}` placeholder. */
export type UnsetRead = { readonly where: 'code' | 'hole' | 'placeholder'; readonly inFunction: boolean };

/** What other languages write for nil, true and false, which NeuroScript reads as (unset) variable names. */
const OTHER_LITERALS: Readonly<Record<string, string>> = {
  null: 'nil', NULL: 'nil', Null: 'nil', None: 'nil', undefined: 'nil', Nil: 'nil', NIL: 'nil',
  True: 'true', TRUE: 'true', False: 'false', FALSE: 'false',
};

/**
 * Names other guides (the Go original's own docs among them) give the
 * failure's message and code in an `on error` handler, which NeuroScript
 * calls `system_error_message` and `system_error_code`.
 */
const ERROR_VARIABLES: Readonly<Record<string, string>> = {
  error_msg: 'system_error_message', error_message: 'system_error_message', err_msg: 'system_error_message',
  errmsg: 'system_error_message', error_text: 'system_error_message', last_error: 'system_error_message',
  err: 'system_error_message', exception: 'system_error_message',
  error_code: 'system_error_code', err_code: 'system_error_code', errcode: 'system_error_code',
};

/** The fix for an unset name: what it was likely meant as, or to set it. */
function fixFor(name: string, meant: string | undefined, read: UnsetRead): string {
  if (Object.hasOwn(OTHER_LITERALS, name)) return `did you mean ${OTHER_LITERALS[name]}? NeuroScript writes nil, true and false`;
  if (name === 'system_error_message' || name === 'system_error_code') return "it is set only while an 'on error' handler runs: read it inside one";
  if (Object.hasOwn(ERROR_VARIABLES, name)) {
    return `did you mean '${ERROR_VARIABLES[name]}'? Inside an 'on error' handler, system_error_message and system_error_code describe the failure`;
  }
  if (meant !== undefined) return `did you mean '${meant}'? Otherwise set it before reading it`;
  // No name is close, so the word may be meant as text (`emit hello`): in a command's code, say how to write that.
  if (read.where === 'code' && !read.inFunction) return `set it before reading it, or fix the name; if you meant the text ${name}, quote it: "${name}"`;
  return 'set it before reading it, or fix the name';
}

/** Why reading `name` fails and how to fix it; `meant` is the name it most likely means, if any. */
export function unsetVariableMessage(name: string, meant: string | undefined, read: UnsetRead): string {
  if (TURN_GLOBALS.has(name)) {
    return `Variable '${name}' is not bound in this run: an agent's turn binds userdata, sid and turn_index, but this run was given no global named '${name}'; give the run that global, or run the program as an agent's turn.`;
  }
  // A {{name}} hole or placeholder is often meant as text (a template for a tool); a function's read, the caller's variable.
  const text =
    read.where === 'hole'
      ? `; to keep {{${name}}} as text, write the string as '''…''', which has no holes`
      : read.where === 'placeholder'
        ? `; to write {{${name}}} as text, put it in a '''…''' string`
        : read.inFunction && meant === undefined
          ? '; a function sees only its parameters, its own variables and the globals: pass the value in as an argument'
          : '';
  return `Variable '${name}' is never set in this program, so it would read as nil: ${fixFor(name, meant, read)}${text}.`;
}

/**
 * The messages of one program's unset names, each name's closest match
 * worked out once: the closest of `known` (the names the file and the run
 * bind) for the first {@link SUGGESTED_NAMES} names, none after them.
 */
export function unsetVariableMessages(known: () => Iterable<string>): (name: string, read: UnsetRead) => string {
  const meant = new Map<string, string | undefined>();
  return (name, read) => {
    if (!meant.has(name)) meant.set(name, meant.size < SUGGESTED_NAMES ? closestName(name, known()) : undefined);
    return unsetVariableMessage(name, meant.get(name), read);
  };
}
