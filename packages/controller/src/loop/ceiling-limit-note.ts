/**
 * A run stopped by a limit the loop's ceilings set, not the agent's quotas:
 * the interpreter names the limit it knows (`(limit: toolCalls)`), so a host
 * reading it would raise `quotas.toolCalls`, which changes nothing. When the
 * run's limit was what a ceiling had left, the failure says so.
 */
import { DEFAULT_LIMITS, type RunLimits } from '@askloop/interpreter';
import type { ResolvedAgentDefinition } from '../agent/agent-definition.ts';
import type { TurnFailure } from './turn-record.ts';

/** The limit each failure code reports, where a ceiling can set it. */
const LIMIT_OF: Readonly<Record<string, 'fuel' | 'toolCalls' | 'wallMs'>> = {
  SCRIPT_FUEL_EXHAUSTED: 'fuel',
  SCRIPT_TOOL_CALL_LIMIT: 'toolCalls',
  SCRIPT_TIMEOUT: 'wallMs',
};

/** `failure` with a note naming the ceiling when the run's limit was what `agent.ceilings` left (below its quota). */
export function withCeilingNote(failure: TurnFailure, agent: ResolvedAgentDefinition, limits: Partial<RunLimits>): TurnFailure {
  const key = LIMIT_OF[failure.code];
  if (key === undefined) return failure;
  const ceiling = agent.ceilings[key];
  const limit = limits[key];
  const quota = agent.quotas[key] ?? DEFAULT_LIMITS[key];
  if (ceiling === undefined || limit === undefined || limit >= quota) return failure;
  const unit = key === 'wallMs' ? ' ms' : key === 'fuel' ? ' steps' : '';
  // The whole ceiling, below the quota: the earlier turns spent none of it (or the ceiling is lower than one turn's quota).
  if (limit >= ceiling) return { ...failure, message: `${failure.message} That limit is the loop's ceilings.${key} (${ceiling}${unit}), below quotas.${key} (${quota}${unit}): raise the ceiling to let a turn go further.` };
  return { ...failure, message: `${failure.message} That limit is what the loop's ceilings.${key} (${ceiling}${unit}) had left for this turn, below quotas.${key} (${quota}${unit}): the loop has spent nearly all of it.` };
}
