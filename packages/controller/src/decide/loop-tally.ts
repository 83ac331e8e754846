/**
 * What the loop needs from a session's decided turns, folded into one small
 * object: the totals, the streaks, the progress guard's digest run and the
 * decisions so far. It is kept in the session row (`SessionRecord.tally`,
 * written in the same transaction as each decided turn), so a step reads one
 * session row and the last turn instead of every earlier record; a session
 * without one (written by an older version, or after an approval changed a
 * decided turn) gets it rebuilt from its records by {@link tallyOf}, with the
 * same result. Folding turn by turn gives exactly what the list predicates of
 * `stop-condition.ts` compute over the same records.
 */
import { turnSpend } from './turn-spend.ts';
import type { TurnRecord } from '../loop/turn-record.ts';
import { isRunTimeFailure } from './halt-reason-of.ts';
import type { LoopTotals } from './stop-condition.ts';

/** One decided turn as `LoopResult.decisions` lists it. */
export interface TallyDecision {
  readonly turn: number;
  readonly decision: 'CONTINUE' | 'DONE' | 'HALT' | 'PAUSE';
  readonly reason: string | null;
}

/** The fold of turns 1 … `turn` of a session. */
export interface LoopTally {
  /** The last turn index folded in (0: none). */
  readonly turn: number;
  readonly totals: LoopTotals;
  /** Turns in a row at the end that failed with a run-time error (`failure.kind` `runtime`). */
  readonly errorStreak: number;
  /** Turns in a row at the end whose non-run-time failure was fed back (decision CONTINUE). */
  readonly repairStreak: number;
  /** The last turn's progress digest (null when it ran nothing). */
  readonly digest: string | null;
  /** Turns in a row at the end with that digest (0 when it is null). */
  readonly digestRun: number;
  /** A nudge turn ran within that run. */
  readonly nudged: boolean;
  /** Every folded turn with a decision, in order. */
  readonly decisions: readonly TallyDecision[];
}

/** The tally of a session with no turns. */
export const EMPTY_TALLY: LoopTally = {
  turn: 0,
  totals: { inputTokens: 0, outputTokens: 0, costUsd: 0, fuel: 0, toolCalls: 0, wallMs: 0 },
  errorStreak: 0,
  repairStreak: 0,
  digest: null,
  digestRun: 0,
  nudged: false,
  decisions: [],
};

/** The decisions-list entry of a decided turn. */
export function tallyDecision(turn: TurnRecord): TallyDecision | undefined {
  const decision = turn.decision;
  if (decision === undefined) return undefined;
  const reason = decision.kind === 'HALT' || decision.kind === 'PAUSE' ? decision.reason : decision.kind === 'CONTINUE' ? (decision.next ?? null) : null;
  return { turn: turn.turnIndex, decision: decision.kind, reason };
}

/** `tally` with `turn` folded in (the turn after `tally.turn`). */
export function foldTally(tally: LoopTally, turn: TurnRecord): LoopTally {
  const { totals } = tally;
  const digest = turn.digest ?? null;
  const digestRun = digest === null ? 0 : digest === tally.digest ? tally.digestRun + 1 : 1;
  const entry = tallyDecision(turn);
  const spend = turnSpend(turn);
  return {
    turn: turn.turnIndex,
    totals: {
      inputTokens: totals.inputTokens + spend.inputTokens,
      outputTokens: totals.outputTokens + spend.outputTokens,
      costUsd: totals.costUsd + spend.costUsd,
      fuel: totals.fuel + turn.usage.fuel,
      toolCalls: totals.toolCalls + turn.usage.toolCalls,
      wallMs: totals.wallMs + (turn.timings.total ?? 0),
    },
    errorStreak: isRunTimeFailure(turn.failure) ? tally.errorStreak + 1 : 0,
    repairStreak: turn.failure !== undefined && !isRunTimeFailure(turn.failure) && turn.decision?.kind === 'CONTINUE' ? tally.repairStreak + 1 : 0,
    digest,
    digestRun,
    nudged: digestRun === 0 ? false : turn.kind === 'nudge' || (digestRun > 1 && tally.nudged),
    decisions: entry === undefined ? tally.decisions : [...tally.decisions, entry],
  };
}

/** The tally of `turns` (a session's records, in order), from nothing. */
export function tallyOf(turns: readonly TurnRecord[]): LoopTally {
  let tally = EMPTY_TALLY;
  for (const turn of turns) tally = foldTally(tally, turn);
  return tally;
}
