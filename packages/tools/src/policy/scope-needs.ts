/**
 * What a tool's `scopes` function says one call needs, checked for shape. A
 * scope function that throws something other than a `ToolError`, or returns
 * anything but a list of capability strings or objects, is a bug of the tool's
 * author: it is reported as `TOOL_SPEC_INVALID` naming the tool and what came
 * back, not as a policy denial (which would tell the model to change the
 * policy, or to do without a tool it may call).
 */
import { ToolError, isToolError } from '../errors/tool-error.ts';
import type { ToolArguments, ToolSpec } from '../spec/tool-spec.ts';
import type { Capability } from './capability.ts';

/** At most this much of what a scope function returned goes into the message. */
const MAX_SHOWN = 80;

/** A returned value in words for the message: JSON cut short, or its kind. */
function shown(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  if (json === undefined) return typeof value;
  return json.length > MAX_SHOWN ? `${json.slice(0, MAX_SHOWN)}…` : json;
}

/** A capability object as `parseCapability` makes one: a resource and lists of verbs and scopes. */
function isCapabilityObject(value: unknown): value is Capability {
  if (value === null || typeof value !== 'object') return false;
  const { resource, verbs, scopes } = value as Partial<Capability>;
  const strings = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item === 'string');
  return typeof resource === 'string' && strings(verbs) && strings(scopes);
}

/**
 * The needs `spec.scopes(args)` gives. A `ToolError` it throws is its refusal of the arguments (the fs tools' path
 * with `..`) and passes through; anything else it throws, or returns, that is not a list of needs is `TOOL_SPEC_INVALID`.
 */
export function scopeNeeds(spec: ToolSpec, args: ToolArguments): readonly (string | Capability)[] {
  if (spec.scopes === undefined) return [];
  const invalid = (what: string, cause?: unknown): ToolError =>
    new ToolError(
      'TOOL_SPEC_INVALID',
      `${spec.displayName} has a broken spec: its scopes must return a list of capability strings (such as 'notes:write:todo') or capability objects, ${what}; this is a bug of the tool, not of the program or the policy: fix its spec (a scope function refuses arguments by throwing a ToolError)`,
      // What it threw is kept as the cause, for its stack (the host drops a cause whose message it had to redact).
      { tool: spec.displayName, ...(cause === undefined ? {} : { cause }) },
    );
  let needs: unknown;
  try {
    needs = spec.scopes(args);
  } catch (error) {
    if (isToolError(error)) throw error;
    throw invalid(`but it threw: ${error instanceof Error ? error.message : shown(error)}`, error);
  }
  if (!Array.isArray(needs)) throw invalid(`got ${shown(needs)}`);
  const wrong = needs.find((need) => typeof need !== 'string' && !isCapabilityObject(need));
  if (wrong !== undefined || needs.some((need) => need === undefined)) throw invalid(`got ${shown(needs)} (an item is ${shown(wrong)})`);
  return needs as (string | Capability)[];
}
