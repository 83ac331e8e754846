/**
 * One step of a session, run inside its single-flight gate: read the stored
 * turns, run the next turn (or finish one found unfinished), and update the
 * session. What comes next is read from the records, never from memory, so
 * any host can take the next step (resume, multi-host workers).
 */
import type { LoopDecision } from '../decide/loop-decision.ts';
import type { LoopContext } from '../loop/loop-context.ts';
import { runTurn } from '../loop/run-turn.ts';
import type { TurnRecord } from '../loop/turn-record.ts';
import type { SessionRecord, SessionStatus } from '../store/transcript-store.ts';

/** The session status after `decision`. */
export function statusOf(decision: LoopDecision | undefined): SessionStatus {
  if (decision === undefined || decision.kind === 'CONTINUE') return 'running';
  return decision.kind === 'DONE' ? 'done' : decision.kind === 'HALT' ? 'halted' : 'paused';
}

/** True when the session can take another step. */
export function canStep(last: TurnRecord | undefined): boolean {
  if (last === undefined) return true;
  if (last.phase === 'awaiting-approval') return false;
  if (last.phase !== 'decided') return true;
  const decision = last.decision;
  if (decision?.kind === 'CONTINUE') return true;
  if (decision?.kind === 'HALT' && decision.reason === 'ERR_CANCELLED') return true;
  return decision?.kind === 'PAUSE' && decision.reason === 'V1_AWAIT' && last.approval?.state === 'approved';
}

/**
 * A cancelled turn, opened again where it stopped: its recorded reply and
 * checked program are kept (no new model call; its write calls replay from
 * the idempotence records), what the cancelled run produced is dropped.
 */
export function reopenTurn(record: TurnRecord): TurnRecord {
  const { decision: _decision, failure: _failure, error: _error, control, endedAt: _endedAt, ...rest } = record;
  const ranLints = control?.lints.length ?? 0;
  return {
    ...rest,
    phase: rest.prepared !== undefined ? 'prepared' : 'asking',
    lints: rest.lints.slice(0, rest.lints.length - ranLints),
    emits: [],
    whispers: [],
    output: '',
    scratchpad: '',
    toolCalls: [],
    digest: null,
    usage: { ...rest.usage, fuel: 0, toolCalls: 0 },
  };
}

/** Runs the next turn of the session, if it can take one; returns the last turn afterwards. */
export async function stepSession(context: LoopContext): Promise<TurnRecord | undefined> {
  const turns = await context.store.listTurns(context.session.sid);
  const last = turns.at(-1);
  // A session halted before its first turn (its task is not valid USERDATA) has nothing to run, however it is driven.
  if (last === undefined && (await context.store.getSession(context.session.sid))?.lastDecision?.kind === 'HALT') return undefined;
  if (!canStep(last)) {
    // A host that died between saving the decided turn and updating the session left the row behind: catch it up.
    if (last?.phase === 'decided' && last.decision !== undefined) {
      const stored = await context.store.getSession(context.session.sid);
      if (stored !== undefined && (stored.status !== statusOf(last.decision) || stored.turns !== last.turnIndex)) await updateSession(context, last);
    }
    return last;
  }
  let record: TurnRecord;
  if (last === undefined) record = await runTurn(context, [], 'normal');
  else if (last.phase !== 'decided') record = await runTurn(context, turns.slice(0, -1), last);
  else if (last.decision?.kind === 'HALT') record = await runTurn(context, turns.slice(0, -1), reopenTurn(last)); // a cancelled turn runs again
  else record = await runTurn(context, turns, last.decision?.kind === 'CONTINUE' ? (last.decision.next ?? 'normal') : 'normal');
  await updateSession(context, record);
  return record;
}

/** Writes the session's status after `record`. */
export async function updateSession(context: LoopContext, record: TurnRecord): Promise<void> {
  const stored = (await context.store.getSession(context.session.sid)) ?? context.session;
  const updated: SessionRecord = {
    ...stored,
    status: statusOf(record.decision),
    turns: record.phase === 'decided' ? record.turnIndex : record.turnIndex - 1,
    updatedAt: new Date(context.clock.now()).toISOString(),
    ...(record.decision === undefined || record.decision.kind === 'CONTINUE' ? {} : { lastDecision: record.decision }),
  };
  await context.store.updateSession(updated);
}
