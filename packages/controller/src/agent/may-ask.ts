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
