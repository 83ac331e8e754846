/**
 * An `ask` counts as a call of the asking agent: against its policy's
 * per-session limit, in the session's call counter (as `ask`), so a session
 * limited to N calls cannot make more by asking other agents. The asked
 * agent's own calls count under its own policy and session.
 */
import type { CallCounter, Policy } from '@askloop/tools';

/** The name an ask is counted under, per tool, in the session's counter. */
export const ASK_COUNTED_AS = 'ask';

/** Counts one ask in `counter`, or throws `POLICY_CALL_LIMIT` (counting nothing) when the session's limit is reached. */
export function countAsk(policy: Policy, counter: CallCounter): void {
  const limit = policy.limits.perSession;
  if (limit !== undefined && counter.total >= limit) {
    throw Object.assign(new Error(`ask exceeded its call limit: at most ${limit} tool calls (an ask counts as one) are allowed per session`), { code: 'POLICY_CALL_LIMIT' });
  }
  counter.total += 1;
  counter.perTool.set(ASK_COUNTED_AS, (counter.perTool.get(ASK_COUNTED_AS) ?? 0) + 1);
}
