/**
 * What a turn spent on models, as the loop's token and cost ceilings count
 * it: its own model call, and the whole spend of the child loops its `ask`s
 * ran (recorded with each ask). A child works under its own ceilings too, and
 * its fuel and tool calls are its own loop's: an ask counts as one call of
 * the asker's.
 */
import type { ModelSpend, TurnRecord } from '../loop/turn-record.ts';

/** `spend` with `more` added: tokens and cost (any other fields of `spend`, such as a turn's fuel, are kept). */
export function addSpend<T extends ModelSpend>(spend: T, more: ModelSpend): T {
  return { ...spend, inputTokens: spend.inputTokens + more.inputTokens, outputTokens: spend.outputTokens + more.outputTokens, costUsd: spend.costUsd + more.costUsd };
}

/** The turn's model spend, its asks' children included. */
export function turnSpend(turn: Pick<TurnRecord, 'usage' | 'asks'>): ModelSpend {
  const { inputTokens, outputTokens, costUsd } = turn.usage;
  let spend: ModelSpend = { inputTokens, outputTokens, costUsd };
  for (const ask of turn.asks ?? []) if (ask.usage !== undefined) spend = addSpend(spend, ask.usage);
  return spend;
}
