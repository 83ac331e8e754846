/**
 * The first step of a turn: the envelope (USERDATA from the caller; SCRATCHPAD
 * and OUTPUT from the previous turn only, capped, with marker lines
 * neutralised so a program cannot inject sections) and the system text, as a new record in
 * phase `idle`.
 */
import { canonicalJson, composeEnvelope, neutralizeMarkerLines } from '@askloop/envelope';
import { approvedAwaitLine } from './approval-note.ts';
import { failureFixLine } from './failure-fix.ts';
import { markerNotCountedLine } from './marker-note.ts';
import { secretHiddenLine } from './secret-note.ts';
import { isoNow, type LoopContext } from './loop-context.ts';
import { sharedSystemText, systemTail, type RemainingBudget } from './system-text.ts';
import { truncateFeedback } from './truncate-feedback.ts';
import type { TurnHistory } from './turn-history.ts';
import type { TurnKind, TurnRecord } from './turn-record.ts';

/** ACTIONS of the envelope the host sends: where the model writes its program. */
export const ACTIONS_PLACEHOLDER = '(write exactly one command … endcommand block here)';

function remainingBudget(context: LoopContext, history: TurnHistory, turn: number): RemainingBudget {
  const { ceilings } = context.agent;
  const { totals } = history.tally;
  return {
    turn,
    maxTurns: ceilings.maxTurns,
    ...(ceilings.tokens === undefined ? {} : { tokens: ceilings.tokens - totals.inputTokens - totals.outputTokens }),
    ...(ceilings.costUsd === undefined ? {} : { costUsd: ceilings.costUsd - totals.costUsd }),
    ...(ceilings.fuel === undefined ? {} : { fuel: ceilings.fuel - totals.fuel }),
    ...(ceilings.toolCalls === undefined ? {} : { toolCalls: ceilings.toolCalls - totals.toolCalls }),
  };
}

/**
 * A new turn record after the session's decided turns (`history`); `base`
 * is the agent's shared system text (`sharedSystemBase`), which the turn's
 * system text extends with its budget line.
 */
export function composeTurn(context: LoopContext, history: TurnHistory, kind: TurnKind, base: string): TurnRecord {
  const started = context.clock.now();
  const turnIndex = history.tally.turn + 1;
  const last = history.previous;
  const userdata = context.session.userdata;
  const envelope = composeEnvelope({
    // An object as it is: compose checks its shape with a few property reads (and writes it as canonical JSON),
    // where its text would be parsed again every turn.
    userdata: typeof userdata === 'object' && userdata !== null && !Array.isArray(userdata) ? userdata : canonicalJson(userdata),
    scratchpad: last === undefined ? null : neutralizeMarkerLines(truncateFeedback(last.scratchpad.trimEnd(), 'SCRATCHPAD')),
    output: last === undefined ? null : neutralizeMarkerLines(truncateFeedback(last.output.trimEnd(), 'OUTPUT')),
    actions: ACTIONS_PLACEHOLDER,
  });
  const notes = last === undefined ? [] : [approvedAwaitLine(last), last.failure === undefined ? undefined : failureFixLine(last.failure), markerNotCountedLine(last), secretHiddenLine(last)].filter((line) => line !== undefined);
  const tail = systemTail(remainingBudget(context, history, turnIndex), kind, notes);
  const record: TurnRecord = {
    sid: context.session.sid,
    loopId: context.loopId,
    turnIndex,
    kind,
    phase: 'idle',
    startedAt: isoNow(context),
    system: sharedSystemText(base, tail),
    envelope,
    lints: [],
    diagnostics: [],
    emits: [],
    whispers: [],
    output: '',
    scratchpad: '',
    toolCalls: [],
    usage: { fuel: 0, toolCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 },
    timings: { compose: context.clock.now() - started },
    digest: null,
  };
  return record;
}
