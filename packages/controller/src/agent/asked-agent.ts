/**
 * The agent an `ask` starts a child loop of: the asked agent with its ceilings
 * lowered to what its asker has left, so a child cannot spend past what the
 * asking loop may still spend.
 */
import type { LanguageModel } from '@askloop/providers';
import type { AskBudget } from '../loop/loop-context.ts';
import type { ResolvedAgentDefinition } from './agent-definition.ts';

/**
 * Whether the loop can count what `model`'s calls cost: a model made by `createLanguageModel` (every provider of
 * `defineProvider`) has a `prices` field and costs only by it; a hand-built model without one may report each call's
 * cost itself (a gateway's), which the loop counts.
 */
export function costsCounted(model: LanguageModel): boolean {
  return !('prices' in model) || model.prices !== undefined;
}

/**
 * `agent` with its token ceiling and — when `model`'s cost is counted — its cost ceiling each lowered to what its
 * asker has `left` (never raised). A child whose model has no prices costs $0 here, so the asker's cost ceiling has
 * nothing to bound: it is left off, not turned into a ceiling the child could never reach.
 */
export function askedAgent(agent: ResolvedAgentDefinition, left: AskBudget | undefined, model: LanguageModel): ResolvedAgentDefinition {
  if (left === undefined) return agent;
  const tokens = left.tokens === undefined ? agent.ceilings.tokens : Math.min(agent.ceilings.tokens ?? Number.POSITIVE_INFINITY, left.tokens);
  const costUsd = left.costUsd === undefined || !costsCounted(model) ? agent.ceilings.costUsd : Math.min(agent.ceilings.costUsd ?? Number.POSITIVE_INFINITY, left.costUsd);
  return { ...agent, ceilings: { ...agent.ceilings, ...(tokens === undefined ? {} : { tokens }), ...(costUsd === undefined ? {} : { costUsd }) } };
}
