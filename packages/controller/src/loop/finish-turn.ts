/**
 * The end of a turn: scan ONLY OUTPUT for control, decide (built-in rules,
 * then the plugins' stop conditions when the built-in answer is CONTINUE),
 * shape the OUTPUT fed back (SYSTEM_ERROR for a repair, the v1 halt marker),
 * and persist the record in phase `decided`, with the session row that
 * counts it (one transaction), before anything else happens. The decided
 * record keeps the ACTIONS source, not the checked program's AST (no saved
 * record has one: a cancelled turn re-opened is prepared again from its
 * recorded reply).
 */
import { haltMarker, LOOP_DONE_MARKER } from '@askloop/envelope';
import { decideAfter } from '../decide/decide-turn.ts';
import { foldTally } from '../decide/loop-tally.ts';
import { isRunTimeFailure } from '../decide/halt-reason-of.ts';
import type { LoopDecision } from '../decide/loop-decision.ts';
import { markerWriters } from '../decide/marker-writers.ts';
import { scanControl, type ScanProvenance } from '../decide/scan-control.ts';
import { callFirst } from '../plugin/call-hook.ts';
import { sessionAfter } from '../session/session-after.ts';
import { decisionLogEntry } from './decision-log.ts';
import { isoNow, type LoopContext } from './loop-context.ts';
import { MARKER_NOT_COUNTED, markerNotCountedNote } from './marker-note.ts';
import { failureFeedback } from './system-error-output.ts';
import { turnContext } from './turn-context.ts';
import type { TurnHistory } from './turn-history.ts';
import type { TurnRecord, TurnTimings } from './turn-record.ts';

/** Shapes the OUTPUT the next turn (or the caller) sees for `decision`. */
function finalOutput(record: TurnRecord, decision: LoopDecision, dialect: 'v4' | 'v1'): string {
  let output = record.output;
  // A failure that stopped the program before it ran is fed back with whatever turn comes next (repair, answer-now).
  // A program its check refused: every error the check found (bounded), so one repair can mend them all.
  if (decision.kind === 'CONTINUE' && record.failure !== undefined && !isRunTimeFailure(record.failure)) {
    output += `${failureFeedback(record.failure, record)}\n`;
  }
  if (decision.kind === 'HALT' && dialect === 'v1') {
    const reason = decision.reason === 'V1_HALT' || decision.reason === 'V1_ABORT' ? decision.message : decision.reason;
    output += `${haltMarker(reason)}\n`;
  }
  return output;
}

/** What the scan may know of the program behind `record`'s OUTPUT: its text, what it writes of its own, and which statement wrote each emit. */
function provenanceOf(record: TurnRecord): ScanProvenance {
  // Walking the program is needed only when OUTPUT may hold a signal (every marker of both dialects says "loop").
  const prepared = record.emits.some((text) => /loop/i.test(text)) ? record.prepared : undefined;
  return {
    ...(record.actions === undefined ? {} : { actions: record.actions }),
    ...(prepared === undefined ? {} : { writers: markerWriters([prepared.program, ...prepared.libraries], LOOP_DONE_MARKER) }),
    ...(record.emitLines === undefined ? {} : { emitLines: record.emitLines }),
  };
}

/** Scans, decides and saves `record`; returns the decided record. */
export async function finishTurn(context: LoopContext, history: TurnHistory, record: TurnRecord): Promise<TurnRecord> {
  const scanStarted = context.clock.now();
  const ran = record.failure === undefined || isRunTimeFailure(record.failure);
  const control = ran ? scanControl(context.agent.dialect, record.emits, provenanceOf(record)) : undefined;
  // A replay counts the recording's spend: its model answers only a turn's last call, which a turn rerun after a failed
  // call, or a failed call that streamed part of a reply, spent more than.
  const spend = context.recordedSpend?.(record);
  const scanned: TurnRecord = {
    ...record,
    ...(spend === undefined ? {} : { usage: { ...record.usage, ...spend } }),
    ...(control === undefined ? {} : { control }),
    lints: [...record.lints, ...(control?.lints ?? [])],
  };
  // The turn's times up to `at`. Busy time only: a turn that waited for a person's approval does not spend the loop's
  // wall clock meanwhile. A replay keeps the recorded times: its model and tools answer at once, the recording's took real time.
  const timingsAt = (at: number): TurnTimings => {
    const measured = { ...scanned.timings, scan: at - scanStarted };
    const total = (measured.earlier ?? 0) + (measured.compose ?? 0) + (measured.model ?? 0) + (measured.prepare ?? 0) + (measured.execute ?? 0) + measured.scan;
    return context.recordedTimings?.(scanned) ?? { ...measured, total };
  };
  // Decided with this turn's own time counted: a turn that spent the wall-clock ceiling halts here, not in the next
  // turn's model call with nothing left.
  let decision = decideAfter(context.agent, history.tally, { ...scanned, timings: timingsAt(context.clock.now()) }, context.signal?.aborted === true);
  if (decision.kind === 'CONTINUE' && decision.next === undefined) {
    decision = (await callFirst(context.hooks, 'decide', turnContext(context, scanned))) ?? decision;
  }
  const ended = context.clock.now();
  const timings = timingsAt(ended);
  const { prepared: _prepared, ...kept } = scanned;
  // A v4 turn that ran and goes on: a DONE marker it wrote that did not count is told to the next turn (marker-note.ts).
  const note = decision.kind === 'CONTINUE' && control !== undefined && context.agent.dialect === 'v4' ? markerNotCountedNote(scanned) : undefined;
  const decided: TurnRecord = {
    ...kept,
    ...(note === undefined ? {} : { lints: [...kept.lints, { code: MARKER_NOT_COUNTED, message: note }] }),
    phase: 'decided',
    decision,
    output: finalOutput(scanned, decision, context.agent.dialect),
    endedAt: new Date(ended).toISOString(),
    timings,
  };
  await context.store.saveTurn(decided, sessionAfter(history.session, decided, foldTally(history.tally, decided), isoNow(context)));
  const final = decided;
  const base = { sid: final.sid, loopId: final.loopId, ts: isoNow(context), turnIndex: final.turnIndex };
  context.emit({ type: 'phase', ...base, phase: 'decided' });
  context.emit({ type: 'decision', ...base, decision, log: decisionLogEntry(final), record: final });
  return final;
}
