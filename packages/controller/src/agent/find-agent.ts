/**
 * Finds and resolves the agent of a run: a name contributed by a plugin, or a
 * definition given in code. Either is validated as a file is, and its policy
 * is built here, so a bad field, pattern or grant fails before any session
 * starts (`LOOP_AGENT_INVALID`): a `maxTurns` of `'three'` or `NaN` would
 * otherwise switch the turn ceiling off, and a misspelt key fall back to its
 * default.
 */
import { createPolicy, type Policy } from '@askloop/tools';
import { LoopError } from '../errors/loop-error.ts';
import { resolveAgentDefinition, type AgentDefinition, type ResolvedAgentDefinition } from './agent-definition.ts';
import { validateAgentDefinition } from './parse-agent-definition.ts';

/** Resolves `agent` against the plugins' agents, validated (`LOOP_AGENT_INVALID`). */
export function findAgent(agents: ReadonlyMap<string, AgentDefinition>, agent: string | AgentDefinition): ResolvedAgentDefinition {
  if (typeof agent !== 'string') return resolveAgentDefinition(validated(agent));
  const found = agents.get(agent);
  if (found === undefined) {
    const names = [...agents.keys()].sort();
    throw new LoopError({ code: 'LOOP_AGENT_NOT_FOUND', message: `no agent named '${agent}'; defined: ${names.join(', ') || '(none)'}` });
  }
  try {
    return resolveAgentDefinition(validated(found));
  } catch (error) {
    // A plugin's definition: the message names the agent, which the caller asked for by name (its fields alone did not say whose they were).
    if (error instanceof LoopError && error.code === 'LOOP_AGENT_INVALID') throw new LoopError({ code: 'LOOP_AGENT_INVALID', message: `agent '${agent}' (as its plugin defines it): ${error.message}`, cause: error });
    throw error;
  }
}

/** Definitions already found valid: a plugin's agents and a caller's reused object are walked once. */
const valid = new WeakSet<object>();

function validated(definition: AgentDefinition): AgentDefinition {
  if (typeof definition === 'object' && definition !== null && valid.has(definition)) return definition;
  validateAgentDefinition(definition);
  valid.add(definition);
  return definition;
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
