/** What hooks see of the turn in progress. */
import type { TurnContext } from '../plugin/plugin.ts';
import type { LoopContext } from './loop-context.ts';
import type { TurnRecord } from './turn-record.ts';

/** The hook view of `record`. */
export function turnContext(context: LoopContext, record: TurnRecord): TurnContext {
  return { sid: record.sid, loopId: record.loopId, turnIndex: record.turnIndex, agent: context.agent.name, record };
}
