/**
 * `tool.system.Caps()` (seed 000 §6): what this agent may do, as a map a
 * script can test with `caps["memory:write"]`. Keys are `resource:verb` for
 * every capability a registered tool needs (true when granted, false when
 * not) and for every verb granted; plus `trusted`, `tools`, the names of
 * the tools the policy lets this agent call (as the catalogue spells them,
 * in the order of their canonical names), and
 * `grants`, the grants as written (`memory:write:/notes/**`): a `true` for
 * `memory:write` alone did not say which keys, and a model learned the scope
 * only from a refusal.
 */
import { defineToolPack, type ToolPack } from '../registry/tool-pack.ts';
import { formatCapability, parseCapability } from '../policy/capability.ts';
import { defineTool } from '../spec/define-tool.ts';
import type { ToolValue } from '../spec/tool-value.ts';

/** Creates the `system` pack. */
export function createSystemTools(): ToolPack {
  return defineToolPack('system', [
    defineTool(
      { name: 'tool.system.Caps', description: 'What this agent may do: {"memory:write": true, ..., "trusted": false, "tools": [...], "grants": ["memory:write:/notes/**", ...]}.', returns: 'map' },
      (_args, context) => {
        const caps: Record<string, ToolValue> = {};
        for (const spec of context.registry.specs()) {
          for (const capability of spec.capabilities) {
            const need = parseCapability(capability);
            for (const verb of need.verbs) caps[`${need.resource}:${verb}`] = context.policy.satisfies({ resource: need.resource, verbs: [verb], scopes: [] });
          }
        }
        for (const grant of context.policy.grants) {
          for (const verb of grant.verbs) caps[`${grant.resource}:${verb}`] = true;
        }
        const sorted: Record<string, ToolValue> = {};
        for (const key of Object.keys(caps).sort()) sorted[key] = caps[key] as ToolValue;
        sorted.trusted = context.policy.trusted;
        // As the catalogue spells them (tool.memory.Get), the names a program calls: a canonical lower-case name did
        // not match what a program compared it with (tool names are matched case-insensitively everywhere else).
        sorted.tools = context.registry.specs().filter((spec) => context.policy.check(spec).ok).map((spec) => spec.displayName);
        sorted.grants = context.policy.grants.map(formatCapability);
        return sorted;
      },
    ),
  ]);
}
