/**
 * The `LoopResult` of a session, built from its stored turns alone (the
 * `askloop run --json` object), so every driver and every host reports the
 * same thing for the same session.
 */
import type { LoopResult } from '../ask-loop.ts';
import type { LoopDecision } from '../decide/loop-decision.ts';
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
    turns: turns.filter((turn) => turn.phase === 'decided').length,
    sid,
    decisions: decided.map((turn) => {
      const d = turn.decision as NonNullable<TurnRecord['decision']>;
      return { turn: turn.turnIndex, decision: d.kind, reason: d.kind === 'HALT' || d.kind === 'PAUSE' ? d.reason : d.kind === 'CONTINUE' ? (d.next ?? null) : null };
    }),
    usage: totals,
  };
}
