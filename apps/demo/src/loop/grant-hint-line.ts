/**
 * The line after a HALT's `cause:` when a tool call was denied for want of a
 * grant (`SCRIPT_TOOL_DENIED` whose message ends "add the grant X to the
 * policy": a missing capability, `HTTP_HOST_DENIED`, or `HTTP_ADDRESS_DENIED`
 * for a loopback or private host a `net` pattern never reaches). Only the
 * person running askloop can give it, and a halted session does not resume,
 * so the line says what to add before running the task again (and, for a
 * special-use address, the config's `http: { specialAddresses: granted }`,
 * which lets a pattern reach them all). The repair
 * hint alone read as if the model could fix it, which it cannot.
 */

/** The grant a denial's message suggests, shell-quoted as the tools wrote it (`src/policy/grant-hint.ts` of @askloop/tools). */
const SUGGESTED_GRANT = /add the grant ('(?:[^']|'\\'')*'|\S+) to the policy/;

/** The hint for a HALT whose last failure is `failure`, as one line (no newline), or undefined when it names no grant. */
export function grantHintLine(failure: { code: string; message: string }): string | undefined {
  if (failure.code !== 'SCRIPT_TOOL_DENIED') return undefined;
  const grant = SUGGESTED_GRANT.exec(failure.message)?.[1];
  if (grant === undefined) return undefined;
  // `--grant` replaces the agent's list rather than adding to it: say so, or the run would lose the grants it had.
  const hint = `  grant: only you can allow this: add ${grant} to policy.grants in the agent's file or config entry, or pass --grant ${grant} (with a --grant for each grant the agent has: the option replaces its list), and run the task again`;
  // A private network with many hosts: one setting lets the agent's patterns reach them, rather than a grant per host.
  return failure.message.includes('HTTP_ADDRESS_DENIED') ? `${hint}; for a private network whose hosts a pattern should reach, set http: { specialAddresses: granted } in askloop.config.yaml` : hint;
}
