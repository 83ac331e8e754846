/**
 * An `ask` counts as a call of the asking agent: against its policy's
 * per-turn and per-session limits, in the turn's and the session's call
 * counters (as `ask`), so a turn or session limited to N calls cannot make
 * more by asking other agents. The asked agent's own calls count under its
 * own policy and session.
 */
import { countCallIn, type CallCounters, type Policy } from '@askloop/tools';

/** The name an ask is counted under, per tool, in the call counters. */
export const ASK_COUNTED_AS = 'ask';

/** Counts one ask in the turn's and the session's counters, or throws `POLICY_CALL_LIMIT` (counting nothing) when either limit is reached. */
export function countAsk(policy: Policy, counters: CallCounters): void {
  const { perTurn, perSession } = policy.limits;
  const reached =
    perTurn !== undefined && counters.turn.total >= perTurn ? `${perTurn} tool calls (an ask counts as one) are allowed per turn` : perSession !== undefined && counters.session.total >= perSession ? `${perSession} tool calls (an ask counts as one) are allowed per session` : undefined;
  if (reached !== undefined) throw Object.assign(new Error(`ask exceeded its call limit: at most ${reached}`), { code: 'POLICY_CALL_LIMIT' });
  countCallIn(counters.turn, ASK_COUNTED_AS);
  countCallIn(counters.session, ASK_COUNTED_AS);
}
