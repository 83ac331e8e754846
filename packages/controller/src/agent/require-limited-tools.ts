/**
 * The agent's per-tool limit keys (`policy.limits.tools`) checked against the
 * tool registry when a session starts. The policy refuses a glob or a
 * malformed key when it is built, but it cannot know whether a well-formed
 * name (`tool.http.Fecth`) is a tool: the registry is complete only once the
 * tool sources (MCP servers) are listed. A key naming no tool would limit
 * nothing while the tool meant stays unlimited, so the session is refused
 * before it is stored and before any model call, rather than failing a turn
 * whose reply was already paid for.
 */
import { canonicalToolName, suggestNames, type ToolRegistry } from '@askloop/tools';
import { LoopError } from '../errors/loop-error.ts';
import type { ResolvedAgentDefinition } from './agent-definition.ts';

/**
 * Throws `LOOP_AGENT_INVALID` naming the first key of `agent.policy.limits.tools`
 * that names no tool of `registry` (as written, with its path), and the
 * registered tools it is close to, if any.
 */
export function requireLimitedTools(agent: ResolvedAgentDefinition, registry: ToolRegistry): void {
  for (const key of Object.keys(agent.policy.limits?.tools ?? {})) {
    if (registry.get(key) !== undefined) continue;
    // Display names (tool.http.Fetch) read better than the canonical lower-case ones the suggestions work on.
    const close = suggestNames(canonicalToolName(key), registry.names()).map((name) => registry.get(name)?.displayName ?? name);
    const hint = close.length > 0 ? `; did you mean ${close.join(', ')}?` : '';
    throw new LoopError({
      code: 'LOOP_AGENT_INVALID',
      message: `agent '${agent.name}': policy: limits.tools key '${key}' names no registered tool${hint} (a limit on a tool that is not registered would limit nothing; the registry holds the plugins' tool packs and the tools the MCP servers list)`,
    });
  }
}

/**
 * {@link requireLimitedTools} for `agent` and for every agent its session
 * may reach by `ask` (`reachable`: `agentsReachableByAsk`). All against
 * `registry`: a child refused when it starts would fail a turn of its parent
 * whose reply was already paid for.
 */
export function requireLimitedToolsOfSession(agent: ResolvedAgentDefinition, reachable: readonly ResolvedAgentDefinition[], registry: ToolRegistry): void {
  for (const each of [agent, ...reachable]) requireLimitedTools(each, registry);
}
