/**
 * The `LoopResult` of a session, built from its stored turns alone (the
 * `askloop run --json` object), so every driver and every host reports the
 * same thing for the same session.
 */
import type { LoopResult } from '../ask-loop.ts';
import type { LoopDecision } from '../decide/loop-decision.ts';
import { foldTally, tallyDecision, type LoopTally } from '../decide/loop-tally.ts';
import { loopTotals } from '../decide/stop-condition.ts';
import type { TurnRecord } from './turn-record.ts';

/** The result of session `sid` with `turns` (a v1 HALT returns its OUTPUT with the halt marker). */
export function loopResult(sid: string, turns: readonly TurnRecord[], dialect: 'v4' | 'v1' = 'v4', before?: LoopDecision): LoopResult {
  const decided = turns.filter((turn) => turn.decision !== undefined);
  const last = decided.at(-1);
  // `before`: a session that stopped before its first turn (invalid USERDATA).
  const decision = last?.decision ?? before;
  const totals = loopTotals(turns);
  const status = decision?.kind === 'DONE' ? 'DONE' : decision?.kind === 'HALT' ? 'HALT' : decision?.kind === 'PAUSE' ? 'PAUSED' : 'RUNNING';
  const reason = decision?.kind === 'HALT' || decision?.kind === 'PAUSE' ? decision.reason : null;
  const v1Halt = decision?.kind === 'HALT' && dialect === 'v1' ? (last?.output ?? null) : null;
  return {
    status,
    reason,
    result: decision?.kind === 'DONE' ? decision.result : v1Halt,
    message: decision?.kind === 'HALT' || decision?.kind === 'PAUSE' ? decision.message : null,
    failure: last?.failure ?? null,
    turns: turns.filter((turn) => turn.phase === 'decided').length,
    sid,
    decisions: decided.map((turn) => {
      const d = turn.decision as NonNullable<TurnRecord['decision']>;
      return { turn: turn.turnIndex, decision: d.kind, reason: d.kind === 'HALT' || d.kind === 'PAUSE' ? d.reason : d.kind === 'CONTINUE' ? (d.next ?? null) : null };
    }),
    usage: totals,
  };
}

/**
 * The same result from a step's state, reading no records: `tally` folds the
 * decided turns, `last` is the session's last turn (decided, or paused for
 * approval, with its decision). Equal to {@link loopResult} over the records.
 */
export function loopResultOf(sid: string, tally: LoopTally, last: TurnRecord & { readonly decision: LoopDecision }, dialect: 'v4' | 'v1' = 'v4'): LoopResult {
  const { decision } = last;
  // A paused turn is not decided yet (the tally does not hold it) but its usage and PAUSE count.
  const pending = last.phase !== 'decided';
  const entry = tallyDecision(last);
  const status = decision.kind === 'DONE' ? 'DONE' : decision.kind === 'HALT' ? 'HALT' : decision.kind === 'PAUSE' ? 'PAUSED' : 'RUNNING';
  return {
    status,
    reason: decision.kind === 'HALT' || decision.kind === 'PAUSE' ? decision.reason : null,
    result: decision.kind === 'DONE' ? decision.result : decision.kind === 'HALT' && dialect === 'v1' ? last.output : null,
    message: decision.kind === 'HALT' || decision.kind === 'PAUSE' ? decision.message : null,
    failure: last.failure ?? null,
    turns: tally.turn,
    sid,
    decisions: pending && entry !== undefined ? [...tally.decisions, entry] : tally.decisions,
    usage: pending ? foldTally(tally, last).totals : tally.totals,
  };
}
