/**
 * The agents a session may reach by `ask`, as the loop allows at run time:
 * an agent at depth d asks the agents of its `asks` when d is below its own
 * `maxAskDepth`. What a session's start checks of them (their per-tool limit
 * keys, a cost ceiling their model can count) would otherwise surface only
 * when a child starts, failing a turn of its asker whose reply was already
 * paid for.
 */
import type { AgentDefinition, ResolvedAgentDefinition } from './agent-definition.ts';
import { findAgent } from './find-agent.ts';

/**
 * Every agent `agent` (a session `depth` asks below its root) may reach by
 * `ask`, each once, nearest first; `agent` itself is left out (it is checked
 * as the session's own). So is an asked name no plugin defines, or whose
 * definition is invalid: the `ask` that names it refuses it, as before.
 */
export function agentsReachableByAsk(agent: ResolvedAgentDefinition, agents: ReadonlyMap<string, AgentDefinition>, depth = 0): ResolvedAgentDefinition[] {
  const reached: ResolvedAgentDefinition[] = [];
  // An agent reached at some depth is listed once: what is checked of it does not depend on where it is asked.
  const seen = new Set<string>([agent.name]);
  let level = [agent];
  for (let at = depth; level.length > 0; at += 1) {
    const next: ResolvedAgentDefinition[] = [];
    for (const asker of level) {
      if (at >= asker.maxAskDepth) continue;
      for (const name of asker.asks) {
        if (seen.has(name)) continue;
        seen.add(name);
        let asked: ResolvedAgentDefinition;
        try {
          asked = findAgent(agents, name);
        } catch {
          continue;
        }
        next.push(asked);
      }
    }
    reached.push(...next);
    level = next;
  }
  return reached;
}
