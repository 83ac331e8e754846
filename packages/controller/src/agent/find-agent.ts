/**
 * Finds and resolves the agent of a run: a name contributed by a plugin, or a
 * definition given in code. Its policy is built here, so a bad pattern or
 * grant fails before any session starts (`LOOP_AGENT_INVALID`).
 */
import { createPolicy, type Policy } from '@askloop/tools';
import { LoopError } from '../errors/loop-error.ts';
import { resolveAgentDefinition, type AgentDefinition, type ResolvedAgentDefinition } from './agent-definition.ts';

/** Resolves `agent` against the plugins' agents. */
export function findAgent(agents: ReadonlyMap<string, AgentDefinition>, agent: string | AgentDefinition): ResolvedAgentDefinition {
  if (typeof agent !== 'string') return resolveAgentDefinition(agent);
  const found = agents.get(agent);
  if (found === undefined) {
    const names = [...agents.keys()].sort();
    throw new LoopError({ code: 'LOOP_AGENT_NOT_FOUND', message: `no agent named '${agent}'; defined: ${names.join(', ') || '(none)'}` });
  }
  return resolveAgentDefinition(found);
}

/** The agent's tool policy. */
export function agentPolicy(agent: ResolvedAgentDefinition): Policy {
  try {
    return createPolicy({
      allow: agent.policy.allow,
      deny: agent.policy.deny,
      grants: agent.policy.grants,
      trusted: agent.policy.trusted,
      ...(agent.policy.limits === undefined ? {} : { limits: agent.policy.limits }),
    });
  } catch (error) {
    throw new LoopError({ code: 'LOOP_AGENT_INVALID', message: `agent '${agent.name}': policy: ${error instanceof Error ? error.message : String(error)}`, cause: error });
  }
}
