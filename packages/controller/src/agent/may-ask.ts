/**
 * Whom an agent may `ask`: only the agents its definition lists in `asks`
 * (or any, with `*`). An asked agent runs under its own policy, so `ask` is a
 * permission like a tool's, checked before the turn runs (a literal agent
 * name) and again when the statement runs (any name).
 */
import type { ResolvedAgentDefinition } from './agent-definition.ts';

/** The code of a refused `ask` (kind `permission`: HALT `ERR_PERMISSIONS`, or fed back under `repair`). */
export const ASK_NOT_ALLOWED = 'SCRIPT_ASK_NOT_ALLOWED';

/** Why `agent` may not ask `target` (a message naming the fix), or undefined when it may. */
export function askRefusal(agent: ResolvedAgentDefinition, target: string): string | undefined {
  if (agent.asks.includes('*') || agent.asks.includes(target)) return undefined;
  const listed = agent.asks.length === 0 ? 'none' : agent.asks.join(', ');
  return `agent '${agent.name}' may not ask '${target}': it may ask ${listed}; add '${target}' to the agent's \`asks\` to allow it`;
}

/**
 * Why an agent that lists agents to ask may not `ask` in this loop: the loop runs as many asks deep as its
 * `maxAskDepth` allows (`offered` is whether the controller offered this loop `ask`). Undefined when that is not why.
 */
export function askDepthRefusal(agent: ResolvedAgentDefinition, offered: boolean): string | undefined {
  if (offered || agent.asks.length === 0) return undefined;
  const depth = agent.maxAskDepth;
  const why = depth === 0 ? 'its maxAskDepth is 0, so it may not ask at all' : `this loop already runs ${depth} or more asks deep, and its maxAskDepth (${depth}) allows asking only from loops less deep`;
  return `'ask' is not allowed in this turn: agent '${agent.name}' lists agents it may ask, but ${why}. Do the work with tools and emit the result, or raise maxAskDepth in the definition.`;
}
