/**
 * The static policy check knows a tool's capabilities only as verbs, so its
 * denial suggests the unscoped grant (`--grant fs:delete`), which would allow
 * the verb everywhere. When the call's arguments are known (a literal in the
 * static check, the actual ones at run time) the scoped need is known too, and
 * the denial should name it (`--grant fs:delete:/public/leak.txt`). When they
 * are not known (a computed argument, or one the scope function refuses), the
 * denial names no grant at all: a program computes its path to make the CLI
 * tell the operator to add `fs:write`, which would let it write everywhere.
 */
import { ToolError, detailsOf } from '../errors/tool-error.ts';
import type { Policy } from '../policy/policy.ts';
import { bindArguments } from '../spec/bind-arguments.ts';
import type { ToolSpec } from '../spec/tool-spec.ts';
import { toToolValue, type ToolValue } from '../spec/tool-value.ts';

/** The codes of a capability denial (the others — deny, allow, trust — do not depend on the arguments). */
const CAPABILITY_DENIALS: ReadonlySet<string> = new Set(['POLICY_CAPABILITY_MISSING', 'HTTP_HOST_DENIED']);

/**
 * `staticError` (from `policy.check(spec)`) made specific to the call: the
 * denial of the first scoped need `args` give that no grant covers. `staticError`
 * as it is when it is not a capability denial or the tool has no scoped needs;
 * without its grant (see {@link unscopedDenial}) when an argument is unknown
 * (`undefined`: not a literal), or the arguments are not plain data, do not
 * bind or are refused by the scope function: the policy denial stays the error
 * reported first.
 */
export function scopedDenial(policy: Policy, spec: ToolSpec, args: readonly (ToolValue | undefined)[] | undefined, staticError: ToolError): ToolError {
  if (spec.scopes === undefined || !CAPABILITY_DENIALS.has(staticError.code)) return staticError;
  if (args === undefined || args.some((argument) => argument === undefined)) return unscopedDenial(spec, staticError);
  try {
    const decision = policy.authorize(spec, bindArguments(spec, args.map((value) => toToolValue(value as ToolValue))).args);
    return !decision.ok && CAPABILITY_DENIALS.has(decision.error.code) ? decision.error : unscopedDenial(spec, staticError);
  } catch {
    return unscopedDenial(spec, staticError);
  }
}

/**
 * The verb-only denial of a tool whose needs are scoped, when the scope is not known: the bare verb is not the grant
 * this call needs but every scope's, so the denial says what to grant instead and carries no `grant`.
 */
function unscopedDenial(spec: ToolSpec, staticError: ToolError): ToolError {
  const { grant: _unscoped, ...details } = detailsOf(staticError);
  const verb = staticError.capability ?? 'it';
  return new ToolError(
    staticError.code,
    `${spec.displayName} needs capability ${verb} for what the call acts on, and the policy holds no ${verb} grant; the call's arguments are not known here (computed, or refused by the tool), so no grant is named: grant ${verb} for the scopes it may act on (${verb}:<scope>), not ${verb} alone, which would allow it everywhere`,
    details,
  );
}
