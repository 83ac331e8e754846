/**
 * The line after a HALT's `cause:` when a tool call was denied for want of a
 * grant (`SCRIPT_TOOL_DENIED` with the grant it needs in `failure.grant`: a
 * missing capability, `HTTP_HOST_DENIED`, or `HTTP_ADDRESS_DENIED` for a
 * loopback or private host a `net` pattern never reaches). Only the person
 * running askloop can give it, and a halted session does not resume, so the
 * line says what to add before running the task again (and, for a
 * special-use address, the config's `http: { specialAddresses: granted }`,
 * which lets a pattern reach them all). The repair hint alone read as if the
 * model could fix it, which it cannot.
 *
 * The grant is read from the failure's data, never from its message: a
 * pattern over the message lost the hint whenever the message was reworded,
 * cut, or had a secret hidden in it. A record from before the field was kept
 * has no line, and needs none: the line follows only a turn this command has
 * just run (`run`, `resume`, `approve`, `deny`), and an old halted session
 * runs no more turns; `askloop show` prints its message whole, hint and all.
 */
import type { NeededGrant } from '@askloop/interpreter';
import { screenShellWord } from './screen-shell-word.ts';

/** The hint for a HALT whose last failure is `failure`, as one line (no newline), or undefined when it names no grant. */
export function grantHintLine(failure: { readonly code: string; readonly grant?: NeededGrant | undefined }): string | undefined {
  const needed = failure.grant;
  if (failure.code !== 'SCRIPT_TOOL_DENIED' || needed === undefined) return undefined;
  // Stored unquoted; quoted here, where it becomes a word of a shell command, on this one line (a newline in a path
  // the program named would otherwise print a line of its own choosing under this one).
  const grant = screenShellWord(needed.capability);
  // `--grant` replaces the agent's list rather than adding to it: say so, or the run would lose the grants it had.
  const hint = `  grant: only you can allow this: add ${grant} to policy.grants in the agent's file or config entry, or pass --grant ${grant} (with a --grant for each grant the agent has: the option replaces its list), and run the task again`;
  // A private network with many hosts: one setting lets the agent's patterns reach them, rather than a grant per host.
  return needed.code === 'HTTP_ADDRESS_DENIED' ? `${hint}; for a private network whose hosts a pattern should reach, set http: { specialAddresses: granted } in askloop.config.yaml` : hint;
}
