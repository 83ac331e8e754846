/**
 * The grant that would allow a denied tool call, as data beside the denial's
 * message. A host's policy says it in words too ("… add the grant X to the
 * policy"), but a reader that needs it (a CLI telling its operator what to
 * add) must not parse a message that may be reworded, cut or have a secret
 * hidden in it. It travels plain and copied: from the host's denial into the
 * isolate and out again on the run's error, or on a check's diagnostic.
 */

/** What a grant would lift: the grant, and the host's code of the denial. */
export interface NeededGrant {
  /**
   * The grant to add, as a policy's `grants` entry or `askloop --grant` takes it, unquoted
   * (`net:read:127.0.0.1:8080`, `memory:write:my key`): quote it to show it in a shell command.
   */
  readonly capability: string;
  /**
   * The tool host's code of the denial, which the script's `SCRIPT_TOOL_DENIED` stands for: `POLICY_CAPABILITY_MISSING`,
   * `HTTP_HOST_DENIED`, or `HTTP_ADDRESS_DENIED` (a special-use address only a grant naming the host reaches).
   */
  readonly code: string;
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/**
 * `value` as a {@link NeededGrant}, copied, when it is one (two non-empty strings), else undefined. What a host or a
 * bridge hands over is read field by field: nothing else of it crosses.
 */
export function neededGrantOf(value: unknown): NeededGrant | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { capability, code } = value as { capability?: unknown; code?: unknown };
  return isText(capability) && isText(code) ? { capability, code } : undefined;
}

/**
 * The needed grant of a denial a tool host gave: its `grant` text (`ToolError.grant` of `@askloop/tools`) under its
 * `code`, or a {@link NeededGrant} already (a recorded call answered again). Undefined for anything else.
 */
export function grantOfDenial(grant: unknown, code: unknown): NeededGrant | undefined {
  if (isText(grant)) return isText(code) ? { capability: grant, code } : undefined;
  return neededGrantOf(grant);
}
