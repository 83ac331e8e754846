/**
 * What a turn spent on models, as the loop's token and cost ceilings count
 * it: its own model call, and the whole spend of the child loops its `ask`s
 * ran (recorded with each ask). A child works under its own ceilings too, and
 * its fuel and tool calls are its own loop's: an ask counts as one call of
 * the asker's.
 */
import type { AskUsage, TurnRecord } from '../loop/turn-record.ts';

/** The turn's model spend, its asks' children included. */
export function turnSpend(turn: TurnRecord): AskUsage {
  let { inputTokens, outputTokens, costUsd } = turn.usage;
  for (const ask of turn.asks ?? []) {
    if (ask.usage === undefined) continue;
    inputTokens += ask.usage.inputTokens;
    outputTokens += ask.usage.outputTokens;
    costUsd += ask.usage.costUsd;
  }
  return { inputTokens, outputTokens, costUsd };
}
