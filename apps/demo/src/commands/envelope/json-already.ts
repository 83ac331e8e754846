/**
 * `--json` for an `envelope` command whose output is JSON already (`parse`,
 * `control`): accepted, as the commands that can print either take it, so a
 * script passing `--json` to every command is not refused; it changes nothing.
 */

/** The option, for `parseArgs`. */
export const JSON_ALREADY = { json: { type: 'boolean' } } as const;

/** Its line in the usage text. */
export const JSON_ALREADY_USAGE = '  --json      accepted, and changes nothing: the output is JSON already';
