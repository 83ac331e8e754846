/**
 * The input schemas of AskLoop's own MCP tools, as strict objects: a key a
 * tool does not take is refused — the SDK answers the call with an
 * invalid-params error (-32602) naming the key, the closest known one and the
 * fields there are — instead of being dropped. Dropped, a misspelt `library`
 * (for `libraries`) or `userData` (for `userdata`) left the program to fail on
 * a function or a variable it was never given (`SCRIPT_FUNCTION_UNKNOWN`,
 * `SCRIPT_VARIABLE_UNSET`), which sent the client looking in the wrong place.
 */
import * as z from 'zod';
import { closestField } from '../closest-field.ts';

/** `unknown field 'library'; did you mean 'libraries'? (the fields are program, libraries, userdata)`. */
export function unknownFieldsMessage(keys: readonly string[], known: readonly string[]): string {
  const named = keys.map((key) => {
    const closest = closestField(key, known);
    return `'${key}'${closest === undefined ? '' : ` (did you mean '${closest}'?)`}`;
  });
  return `unknown field${keys.length === 1 ? '' : 's'} ${named.join(', ')}: this tool takes only ${known.join(', ')} (names are case-sensitive)`;
}

/** A strict `z.object(shape)` whose unknown-key error says which keys, what they were likely meant as, and the fields there are. */
export function strictInput<Shape extends z.ZodRawShape>(shape: Shape): z.ZodObject<Shape, z.core.$strict> {
  const known = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? unknownFieldsMessage((issue as { keys: readonly string[] }).keys, known) : undefined),
  });
}
