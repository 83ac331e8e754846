/**
 * `tool.policy.Allow(plan)` (seed 000 §2.10, §4): the Plan → Apply gate. A
 * plan is a list of steps (or one step); Allow answers `[ok, why]` without
 * running anything, using the same policy as the real calls. A step is either
 * - `{"tool": "tool.fs.Write", "args": [...] | {...}}`: the tool must exist,
 *   pass the policy and accept the arguments, including scoped capabilities
 *   (e.g. the path); call limits are not consumed; or
 * - `{"op": "set"|"cas"|"put"|"write"|"delete"|"get"|"read", "path"|"key": "..."}`:
 *   a memory operation, which needs `memory:write:<path>` (or `memory:read:<path>`).
 * `why` is "" when every step is allowed, else names the first refused step.
 */
import { isToolError } from '../errors/tool-error.ts';
import { formatCapability, type Capability } from '../policy/capability.ts';
import { grantHint } from '../policy/grant-hint.ts';
import { defineToolPack, type ToolPack } from '../registry/tool-pack.ts';
import { bindArguments } from '../spec/bind-arguments.ts';
import { defineTool } from '../spec/define-tool.ts';
import type { ToolContext } from '../spec/tool-context.ts';
import { isToolMap, type ToolValue } from '../spec/tool-value.ts';
import { checkKeyAndValue } from './store-access.ts';

const WRITE_OPS: ReadonlySet<string> = new Set(['set', 'cas', 'put', 'write', 'delete']);
const READ_OPS: ReadonlySet<string> = new Set(['get', 'read']);

function checkStep(step: ToolValue, context: ToolContext): string | undefined {
  if (!isToolMap(step)) return 'is not a map';
  if (typeof step.tool === 'string') {
    const found = context.registry.lookup(step.tool);
    if (found === undefined) return `names the unknown tool ${step.tool}`;
    const spec = found.definition.spec;
    const rawArgs = step.args ?? [];
    try {
      const bound = bindArguments(spec, Array.isArray(rawArgs) ? rawArgs : [rawArgs]);
      const decision = context.policy.authorize(spec, bound.args);
      return decision.ok ? undefined : decision.error.message;
    } catch (error) {
      return isToolError(error) ? error.message : String(error);
    }
  }
  if (typeof step.op === 'string') {
    const op = step.op.toLowerCase();
    const target = typeof step.path === 'string' ? step.path : typeof step.key === 'string' ? step.key : undefined;
    if (target === undefined) return `(op ${op}) has no string "path" or "key"`;
    const verb = WRITE_OPS.has(op) ? 'write' : READ_OPS.has(op) ? 'read' : undefined;
    if (verb === undefined) return `has the unknown op "${op}" (known: ${[...WRITE_OPS, ...READ_OPS].join(', ')})`;
    // The same checks and the same need object as the real memory tools (keyScope): the key is one scope, untrimmed and unsplit.
    try {
      checkKeyAndValue(target, undefined, Number.POSITIVE_INFINITY);
    } catch (error) {
      return isToolError(error) ? `(op ${op}) ${error.message}` : String(error);
    }
    const need: Capability = { resource: 'memory', verbs: [verb], scopes: [target] };
    return context.policy.satisfies(need) ? undefined : `needs capability ${formatCapability(need)} — ${grantHint(need)}`;
  }
  return 'has neither "tool" nor "op"';
}

/** Creates the `policy` pack. */
export function createPolicyTools(): ToolPack {
  return defineToolPack('policy', [
    defineTool(
      {
        name: 'tool.policy.Allow',
        description: 'Checks a plan (list of {"tool", "args"} or {"op", "path"} steps) against the policy without running it: [ok, why].',
        args: [{ name: 'plan', type: 'any', description: 'A step or a list of steps.' }],
        returns: 'list',
      },
      (args, context) => {
        const plan = args.plan as ToolValue;
        const steps = Array.isArray(plan) ? plan : [plan];
        for (const [index, step] of steps.entries()) {
          const problem = checkStep(step, context);
          if (problem !== undefined) return [false, `step ${index} ${problem}`];
        }
        return [true, ''];
      },
    ),
  ]);
}
