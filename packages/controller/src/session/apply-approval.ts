/**
 * Approve or deny a paused session's turn (seed 000's Plan → Apply): a turn
 * held before its program ran goes back to phase `prepared` (approved: it
 * runs; denied: it carries the denial as its failure, so the decision halts
 * with ERR_PERMISSIONS or feeds the denial back under `repair`). A v1 `await`
 * turn (its program already ran) is marked approved, or re-decided as HALT.
 * The turn and the session row are saved in one transaction.
 */
import { haltMarker } from '@askloop/envelope';
import { LoopError } from '../errors/loop-error.ts';
import type { TurnRecord } from '../loop/turn-record.ts';
import type { TranscriptStore } from '../store/transcript-store.ts';

/**
 * Records the approval or denial of `sid`'s paused turn; throws
 * `LOOP_APPROVAL_NOT_PENDING` when nothing waits. Returns the turn when the
 * answer decided it anew (a denied v1 `await`: HALT), for the decision log.
 */
export async function applyApproval(store: TranscriptStore, sid: string, approved: boolean, note: string | undefined, now: string): Promise<TurnRecord | undefined> {
  const last = await store.lastTurn(sid);
  const session = await store.getSession(sid);
  const state = approved ? 'approved' : 'denied';
  let lastDecision: TurnRecord['decision'];
  let record: TurnRecord;
  if (last?.phase === 'awaiting-approval') {
    const { decision: _paused, ...rest } = last;
    const message = last.approval?.message ?? '';
    const denial = { code: 'LOOP_APPROVAL_DENIED', kind: 'approval', message: note ?? 'a person denied the program before it ran' } as const;
    record = { ...rest, phase: 'prepared', approval: { state, message, decidedAt: now, ...(note === undefined ? {} : { note }) }, ...(approved ? {} : { failure: denial }) };
  } else if (last?.phase === 'decided' && last.decision?.kind === 'PAUSE' && last.decision.reason === 'V1_AWAIT' && last.approval === undefined) {
    const approval = { state, message: last.decision.message, decidedAt: now, ...(note === undefined ? {} : { note }) } as const;
    const message = `denied: ${note ?? last.decision.message}`;
    const decision = approved ? last.decision : ({ kind: 'HALT', reason: 'ERR_PERMISSIONS', message } as const);
    // A v1 HALT carries its marker in the OUTPUT it returns (seed 000 §2.6).
    const output = approved ? last.output : `${last.output}${haltMarker(message)}\n`;
    record = { ...last, approval, decision, output };
    if (!approved) lastDecision = decision;
  } else {
    // Say what the session is instead, so the caller knows what to do (nothing, for an ended one; resume, for a running one).
    const decided = last?.decision === undefined ? '' : ` (its last decision: ${last.decision.kind}${'reason' in last.decision ? ` ${last.decision.reason}` : ''})`;
    const status = session === undefined ? '' : `: it is ${session.status}${decided}`;
    throw new LoopError({ code: 'LOOP_APPROVAL_NOT_PENDING', message: `session ${sid} is not paused for approval${status}`, sid });
  }
  const redecided = lastDecision === undefined ? undefined : record;
  if (session === undefined) {
    await store.saveTurn(record);
    return redecided;
  }
  const halted = !approved && last.phase === 'decided';
  // A decided turn changed here (its decision, its OUTPUT): the session's tally is rebuilt from the records on the next step.
  const { tally, ...rest } = session;
  const kept = last.phase === 'decided' ? {} : tally === undefined ? {} : { tally };
  await store.saveTurn(record, { ...rest, ...kept, status: halted ? 'halted' : 'running', updatedAt: now, ...(lastDecision === undefined ? {} : { lastDecision }) });
  return redecided;
}
