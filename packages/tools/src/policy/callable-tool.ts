/**
 * Whether an agent may call a tool, by name, before any program runs: what
 * its catalogue lists. The NeuroScript primer names a tool only to an agent
 * this says may call it, in every turn's system text (the controller's
 * `agentPrimer`) and in the capsules alike, so they cannot disagree; the
 * tool host's "did you mean" names only such tools too.
 */
import type { ToolRegistry } from '../registry/tool-registry.ts';
import type { Policy } from './policy.ts';

/**
 * A test of a tool name (`tool.str.Split`, spelt as the registry accepts it): true when `registry` has the tool and
 * `policy`'s static check allows it (deny, allow, trust, static capabilities; no call limits, no arguments), as
 * `registry.catalogue(policy)` lists it.
 */
export function callableTool(registry: Pick<ToolRegistry, 'get'>, policy: Pick<Policy, 'check'>): (tool: string) => boolean {
  return (tool) => {
    const spec = registry.get(tool);
    return spec !== undefined && policy.check(spec).ok;
  };
}
