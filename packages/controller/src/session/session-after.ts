/**
 * The session row after a turn: its status, decided-turn count, last
 * decision and tally. Saved in the same transaction as the turn's decided
 * (or paused) record, so the row never lags behind the turns it counts.
 */
import type { LoopDecision } from '../decide/loop-decision.ts';
import type { LoopTally } from '../decide/loop-tally.ts';
import type { TurnRecord } from '../loop/turn-record.ts';
import type { SessionRecord, SessionStatus } from '../store/transcript-store.ts';

/** The session status after `decision`. */
export function statusOf(decision: LoopDecision | undefined): SessionStatus {
  if (decision === undefined || decision.kind === 'CONTINUE') return 'running';
  return decision.kind === 'DONE' ? 'done' : decision.kind === 'HALT' ? 'halted' : 'paused';
}

/** The row of `session` after `record`, counting the decided turns of `tally`; `now` is an ISO time. */
export function sessionAfter(session: SessionRecord, record: TurnRecord, tally: LoopTally, now: string): SessionRecord {
  return {
    ...session,
    status: statusOf(record.decision),
    turns: record.phase === 'decided' ? record.turnIndex : record.turnIndex - 1,
    updatedAt: now,
    ...(record.decision === undefined || record.decision.kind === 'CONTINUE' ? {} : { lastDecision: record.decision }),
    tally,
  };
}
