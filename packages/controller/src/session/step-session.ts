/**
 * One step of a session, run inside its single-flight gate: read the session
 * row and its last turn, run the next turn (or finish one found unfinished),
 * and save the decided turn with the updated row. What comes next is read
 * from the store, never from memory, so any host can take the next step
 * (resume, multi-host workers); the row's tally stands in for the earlier
 * records, which a step does not read. The session's call counter is checked
 * against the row and last turn before the turn runs (`kept-counter.ts`).
 */
import { isResumableHalt } from '../decide/halt-reason.ts';
import { turnSpend } from '../decide/turn-spend.ts';
import { EMPTY_TALLY, foldTally, tallyOf, type LoopTally } from '../decide/loop-tally.ts';
import { isoNow, type LoopContext } from '../loop/loop-context.ts';
import { runTurn } from '../loop/run-turn.ts';
import { MAX_INTERRUPTED_KEPT, type EarlierUnfinishedCall, type TurnRecord } from '../loop/turn-record.ts';
import type { SessionRecord } from '../store/transcript-store.ts';
import { counterStepped, counterUnsettled, keepCounterCurrent } from './kept-counter.ts';
import { sessionAfter, statusOf } from './session-after.ts';

/** True when the session can take another step. */
export function canStep(last: TurnRecord | undefined): boolean {
  if (last === undefined) return true;
  if (last.phase === 'awaiting-approval') return false;
  if (last.phase !== 'decided') return true;
  const decision = last.decision;
  if (decision?.kind === 'CONTINUE') return true;
  if (decision?.kind === 'HALT' && isResumableHalt(decision.reason, last.failure)) return true;
  return decision?.kind === 'PAUSE' && decision.reason === 'V1_AWAIT' && last.approval?.state === 'approved';
}

/**
 * A stored turn as a step continues it: without a checked program (records
 * written before this version saved one), so the recorded reply is prepared
 * again against the tools and policy of this moment, as for any record.
 */
function continued(record: TurnRecord): TurnRecord {
  const { prepared: _prepared, ...rest } = record;
  return rest;
}

/**
 * A stored turn found in a phase only a run in progress saves (`asking`, `executing`): the run that saved it stopped
 * without saving its end (its host died or froze, lost its lease, or its step failed). Said in the record
 * (`interrupted`), since nothing else of that run is kept, and what it did outside the store may have happened.
 */
function noteInterrupted(record: TurnRecord, at: string): TurnRecord {
  if (record.phase !== 'asking' && record.phase !== 'executing') return record;
  const runs = [...(record.interrupted ?? []), { phase: record.phase, at }];
  // The latest few, the older ones counted: a turn continued again and again must not grow its record without bound.
  const dropped = Math.max(0, runs.length - MAX_INTERRUPTED_KEPT);
  const total = (record.interruptedDropped ?? 0) + dropped;
  return { ...record, interrupted: runs.slice(dropped), ...(total === 0 ? {} : { interruptedDropped: total }) };
}

/**
 * The record a continued turn's run starts from. One that asks the model again is saved with its note first, as a new
 * turn's `asking` record is: the call may take minutes, and a run that stops during it would otherwise take the note
 * with it (the next run would find one stopped run where there were two). Any other saves its note with its next
 * record, a parse away; a host that gives the turn up before that (its tools missing here) leaves it as it was.
 */
async function continueInterrupted(context: LoopContext, last: TurnRecord): Promise<TurnRecord> {
  const found = continued(last);
  const record = noteInterrupted(found, isoNow(context));
  if (record !== found && record.reply === undefined && record.failure === undefined) await context.store.saveTurn(record);
  return record;
}

/**
 * A turn that halted where `resume` may run it again (cancelled, or its
 * model call failed), opened again where it stopped: a recorded reply is
 * kept and prepared again (no new model call; its write calls replay from
 * the idempotence records), what the stopped run produced is dropped — but
 * a call of it still out when it stopped, which may have acted, stays in
 * `earlierUnfinished`, and what its asks' child loops spent stays in `usage`;
 * a turn without a reply asks the model again.
 */
export function reopenTurn(record: TurnRecord): TurnRecord {
  const { decision: _decision, failure: _failure, error: _error, control, endedAt: _endedAt, asks, toolCallsVersion: _version, ...rest } = continued(record);
  const earlierUnfinished = [...(rest.earlierUnfinished ?? []), ...unfinishedOf(record)];
  const ranLints = control?.lints.length ?? 0;
  // The stopped run's busy time stays spent. The envelope is not composed again, nor a kept reply asked for again:
  // their times stay their own; the rest of the run (a failed model call, the program) moves to `earlier`.
  const { total: spent = 0, earlier = 0, compose, model } = rest.timings;
  const keptModel = rest.reply !== undefined ? model : undefined;
  const before = earlier + spent - (compose ?? 0) - (keptModel ?? 0);
  return {
    ...rest,
    phase: 'asking',
    reruns: (rest.reruns ?? 0) + 1,
    timings: { ...(compose === undefined ? {} : { compose }), ...(keptModel === undefined ? {} : { model: keptModel }), ...(before > 0 ? { earlier: before } : {}) },
    lints: rest.lints.slice(0, rest.lints.length - ranLints),
    emits: [],
    whispers: [],
    output: '',
    scratchpad: '',
    toolCalls: [],
    ...(earlierUnfinished.length === 0 ? {} : { earlierUnfinished }),
    digest: null,
    // What the stopped run's asks' children spent stays spent, as its model calls' spend does: the new run's asks are
    // new children, and the loop's token and cost ceilings count both (the stopped run's asks leave the record).
    usage: { ...rest.usage, ...turnSpend({ usage: rest.usage, asks }), fuel: 0, toolCalls: 0 },
  };
}

/**
 * The calls of `record`'s run still out when it ended, as its earlier run's: the run is the turn's first, or the one
 * the latest of its `reruns` started.
 */
function unfinishedOf(record: TurnRecord): EarlierUnfinishedCall[] {
  const run = (record.reruns ?? 0) + 1;
  return record.toolCalls.flatMap((call) => (call.unfinished === undefined ? [] : [{ run, ...call, unfinished: call.unfinished }]));
}

/** The session after a step: its stored row, its last turn and the tally of its decided turns. */
export interface StepState {
  readonly session: SessionRecord;
  readonly last: TurnRecord | undefined;
  /** Every decided turn folded in (the last turn too when it is decided). */
  readonly tally: LoopTally;
}

/**
 * The tally of the session's decided turns, from the session row when it is
 * current (the step's fast path: no earlier record is read), else rebuilt
 * from the stored turns (a session written before tallies existed, a row a
 * crashed host left one turn behind, a turn changed by an approval).
 */
async function decidedTally(context: LoopContext, session: SessionRecord, last: TurnRecord | undefined): Promise<LoopTally> {
  const through = last === undefined ? 0 : last.phase === 'decided' ? last.turnIndex : last.turnIndex - 1;
  const stored = session.tally;
  if (stored?.turn === through) return stored;
  if (last?.phase === 'decided' && stored?.turn === through - 1) return foldTally(stored, last);
  return tallyOf((await context.store.listTurns(session.sid)).filter((turn) => turn.turnIndex <= through));
}

/** Runs the next turn of the session, if it can take one; returns where the session stands afterwards. */
export async function stepSession(context: LoopContext): Promise<StepState> {
  const { sid } = context.session;
  // Read inside the gate (and lease): the row and the last turn as the previous step left them.
  const session = (await context.store.getSession(sid)) ?? context.session;
  const last = await context.store.lastTurn(sid);
  // A session halted before its first turn (its task is not valid USERDATA) has nothing to run, however it is driven.
  if (last === undefined && session.lastDecision?.kind === 'HALT') return { session, last, tally: EMPTY_TALLY };
  const tally = await decidedTally(context, session, last);
  if (!canStep(last)) {
    // A host that died between saving the decided turn and updating the session left the row behind: catch it up.
    if (last?.phase === 'decided' && last.decision !== undefined && (session.status !== statusOf(last.decision) || session.turns !== last.turnIndex || session.tally?.turn !== tally.turn)) {
      const updated = sessionAfter(session, last, tally, isoNow(context));
      await context.store.updateSession(updated);
      return { session: updated, last, tally };
    }
    return { session, last, tally };
  }
  // A cancelled turn, or one whose model call failed, runs again (canStep allows no other HALT).
  const reopens = last?.phase === 'decided' && last.decision?.kind === 'HALT';
  let record: TurnRecord;
  let before: LoopTally;
  try {
    // The session's call counter counts what the stored turns hold, whoever stepped it last (another host, in worker
    // mode); a turn run again brings it up to date once reopened (below), without its stopped run's calls.
    if (!reopens) await keepCounterCurrent(context.sessionCounter, context.store, sid, last, tally);
    if (last === undefined) record = await runTurn(context, { session, tally: (before = EMPTY_TALLY) }, 'normal');
    else if (last.phase !== 'decided') record = await runTurn(context, { session, tally: (before = tally) }, await continueInterrupted(context, last));
    else if (reopens) {
      // The tally of the turns before it, rebuilt (a fold cannot be undone).
      before = tallyOf((await context.store.listTurns(sid)).filter((turn) => turn.turnIndex < last.turnIndex));
      const reopened = reopenTurn(last);
      // Saved before anything runs (a model call may take minutes of retries): readers see the session running again, not halted.
      await context.store.saveTurn(reopened, sessionAfter(session, reopened, before, isoNow(context)));
      // Its stopped run's finished calls leave the count with its record's (the reopened record holds none): the run
      // counts each again as it replays or makes it, so such a call is counted once, on this host as on one that rebuilds
      // the count. Its unfinished call stays counted (`earlierUnfinished`): it may have acted, and the run makes it again.
      await keepCounterCurrent(context.sessionCounter, context.store, sid, reopened, before);
      record = await runTurn(context, { session, tally: before }, reopened);
    } else record = await runTurn(context, { session, tally: (before = tally), previous: last }, last.decision?.kind === 'CONTINUE' ? (last.decision.next ?? 'normal') : 'normal');
  } catch (error) {
    // Its run counted calls as it made them, and its record may never be stored (a worker's step rolled back): the
    // next step counts from the store again, on this host as on any other.
    counterUnsettled(context.sessionCounter);
    throw error;
  }
  // The turn saved this row with its decided (or paused) record.
  const after = record.phase === 'decided' ? foldTally(before, record) : before;
  counterStepped(context.sessionCounter, record, after);
  return { session: sessionAfter(session, record, after, isoNow(context)), last: record, tally: after };
}
