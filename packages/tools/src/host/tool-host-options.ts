/**
 * The check of `createToolHost`'s options as a whole: a misspelt option
 * (`registy`) or a missing registry or policy was taken, and every call of the
 * host then failed `TOOL_FAILED` with a JavaScript error ("Cannot read
 * properties of undefined (reading 'require')") that named neither. Refused
 * when the host is made, `TOOL_SPEC_INVALID` naming the option, as the pack
 * factories refuse theirs. The session and the turn are checked by
 * `createToolHost` itself.
 */
import { ToolError } from '../errors/tool-error.ts';
import { checkPackOptions, flag, other, type PackOptionKinds } from '../packs/pack-options.ts';

/**
 * Every option of `ToolHostOptions` and what it must be. The bounds are `other`: a run's limits may be `Infinity`
 * (no limit) or 0, which the factories' whole-number check would refuse.
 */
const TOOL_HOST_OPTIONS: PackOptionKinds = {
  registry: other, policy: other, stores: other, session: other, turn: other, clock: other, sessionCounter: other, turnCounter: other,
  defaultTimeoutMs: other, signal: other, deadline: other, deadlineGraceMs: other, maxResultLength: other, maxResultItems: other,
  journalReads: flag, continuesRun: flag, pruneEarlierTurnsAfterMs: other, beforeWrite: other, redact: other, redactionMarker: other, secretHidden: flag,
};

/** A wrong registry or policy named by its kind, never its content. */
function kindOf(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  return typeof value === 'object' ? 'an object without its methods' : `a ${typeof value}`;
}

/** Throws `TOOL_SPEC_INVALID` for options `createToolHost` cannot work with: no object, an unknown option, no registry or policy. */
export function checkToolHostOptions(options: unknown): void {
  checkPackOptions('createToolHost', options, TOOL_HOST_OPTIONS);
  const { registry, policy } = options as { registry?: { require?: unknown }; policy?: { authorize?: unknown } };
  if (typeof registry?.require !== 'function') throw new ToolError('TOOL_SPEC_INVALID', `createToolHost(): registry must be a tool registry (createDefaultRegistry() or createToolRegistry(packs)), got ${kindOf(registry)}`);
  if (typeof policy?.authorize !== 'function') throw new ToolError('TOOL_SPEC_INVALID', `createToolHost(): policy must be a policy (createPolicy({ allow: [...] })), got ${kindOf(policy)}`);
}
