/**
 * Whether a stored session has ended for good: its last turn decided DONE, or
 * HALT for a reason `resume` does not run again (anything but a Ctrl-C or a
 * model call that asking again may mend), or it halted before its first turn
 * (a task that is not valid USERDATA). Read from the last turn, as a step
 * decides, not only from the session row a crash can leave behind. The
 * command line's `resume` and the PostgreSQL queue's `enqueue` refuse such a
 * session with this rule, where a step would do nothing.
 */
import type { LoopDecision } from '../decide/loop-decision.ts';
import { isResumableHalt } from '../decide/halt-reason.ts';
import type { TurnFailure } from '../loop/turn-record.ts';
import type { TranscriptStore } from '../store/transcript-store.ts';

/** How a session ended: its final decision, the turns it took, and its last turn's failure when it had one. */
export interface SessionEnd {
  readonly decision: Extract<LoopDecision, { kind: 'DONE' | 'HALT' }>;
  readonly turns: number;
  readonly failure?: TurnFailure;
}

/**
 * The end of `sid` when nothing can continue it, else undefined: it can take
 * a step, waits for approval, stopped mid-turn, or halted where `resume` runs
 * the turn again. Undefined too for a session the store does not hold.
 */
export async function sessionEnd(store: Pick<TranscriptStore, 'lastTurn' | 'getSession'>, sid: string): Promise<SessionEnd | undefined> {
  const last = await store.lastTurn(sid);
  if (last === undefined) {
    // Halted before its first turn: nothing will ever run. Only then is the row read.
    const decision = (await store.getSession(sid))?.lastDecision;
    return decision?.kind === 'HALT' ? { decision, turns: 0 } : undefined;
  }
  const decision = last.decision;
  if (last.phase !== 'decided' || decision === undefined) return undefined;
  const ended = decision.kind === 'DONE' || (decision.kind === 'HALT' && !isResumableHalt(decision.reason, last.failure));
  if (!ended) return undefined;
  return { decision, turns: last.turnIndex, ...(last.failure === undefined ? {} : { failure: last.failure }) };
}
