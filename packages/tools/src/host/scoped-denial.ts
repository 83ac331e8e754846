/**
 * The static policy check knows a tool's capabilities only as verbs, so its
 * denial suggests the unscoped grant (`--grant fs:delete`), which would allow
 * the verb everywhere. When the call's arguments are known (a literal in the
 * static check, the actual ones at run time) the scoped need is known too, and
 * the denial should name it (`--grant fs:delete:/public/leak.txt`).
 */
import type { ToolError } from '../errors/tool-error.ts';
import type { Policy } from '../policy/policy.ts';
import { bindArguments } from '../spec/bind-arguments.ts';
import type { ToolSpec } from '../spec/tool-spec.ts';
import { toToolValue, type ToolValue } from '../spec/tool-value.ts';

/** The codes of a capability denial (the others — deny, allow, trust — do not depend on the arguments). */
const CAPABILITY_DENIALS: ReadonlySet<string> = new Set(['POLICY_CAPABILITY_MISSING', 'HTTP_HOST_DENIED']);

/**
 * `staticError` (from `policy.check(spec)`) made specific to the call: the
 * denial of the first scoped need `args` give that no grant covers. Falls back
 * to `staticError` when it is not a capability denial, the tool has no scoped
 * needs, or the arguments are not plain data, do not bind or are refused by
 * the scope function: the policy denial stays the error reported first.
 */
export function scopedDenial(policy: Policy, spec: ToolSpec, args: readonly ToolValue[], staticError: ToolError): ToolError {
  if (spec.scopes === undefined || !CAPABILITY_DENIALS.has(staticError.code)) return staticError;
  try {
    const decision = policy.authorize(spec, bindArguments(spec, args.map((value) => toToolValue(value))).args);
    return !decision.ok && CAPABILITY_DENIALS.has(decision.error.code) ? decision.error : staticError;
  } catch {
    return staticError;
  }
}
