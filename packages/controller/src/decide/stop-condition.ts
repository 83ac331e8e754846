/**
 * Stop conditions as small pure predicates over stored turn records, so the
 * decision needs no in-memory state: resume and replay read the same records.
 * `turns` is every decided turn of the session plus the current one, last.
 */
import type { LoopCeilings } from '../agent/agent-definition.ts';
import type { TurnRecord } from '../loop/turn-record.ts';
import { isRunTimeFailure } from './halt-reason-of.ts';
// loop-tally imports only a type from here: no cycle at run time.
import { tallyOf } from './loop-tally.ts';

/** Sums over a session's turns. */
export interface LoopTotals {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number;
  readonly fuel: number;
  readonly toolCalls: number;
  readonly wallMs: number;
}

/** Adds up usage and host time of `turns` (the model spend of their asks' children included): the tally's totals. */
export function loopTotals(turns: readonly TurnRecord[]): LoopTotals {
  return tallyOf(turns).totals;
}

/** The turn ceiling is reached. */
export const isTurnLimit = (turns: readonly TurnRecord[], maxTurns: number): boolean => (turns.at(-1)?.turnIndex ?? 0) >= maxTurns;

/** A token or cost ceiling is reached (`ERR_BUDGET`). */
export function isBudgetSpent(totals: LoopTotals, ceilings: LoopCeilings): boolean {
  if (ceilings.tokens !== undefined && totals.inputTokens + totals.outputTokens >= ceilings.tokens) return true;
  return ceilings.costUsd !== undefined && atLeastCost(totals.costUsd, ceilings.costUsd);
}

/** A billionth of a dollar: costs are compared in whole units of it. */
const NANO_USD = 1e9;

/**
 * Whether a loop's summed cost reaches its ceiling. The sum of the turns' costs is a float sum, which lands a hair
 * below the ceiling it equals (eight turns of $0.1 make $0.7999999999999999): compared as is, a $0.8 ceiling halted
 * a turn late. Compared in whole billionths of a dollar, far below any price a call has.
 */
function atLeastCost(spent: number, ceiling: number): boolean {
  return Math.round(spent * NANO_USD) >= Math.round(ceiling * NANO_USD);
}

/** Whether `left` dollars of a cost ceiling is nothing, in the ceiling's own unit (whole billionths of a dollar). */
export function isNoCostLeft(left: number): boolean {
  return Math.round(left * NANO_USD) <= 0;
}

/** A fuel or tool-call total of the loop is reached (`ERR_QUOTA`). */
export function isQuotaSpent(totals: LoopTotals, ceilings: LoopCeilings): boolean {
  if (ceilings.fuel !== undefined && totals.fuel >= ceilings.fuel) return true;
  return ceilings.toolCalls !== undefined && totals.toolCalls >= ceilings.toolCalls;
}

/** The loop's wall-clock ceiling is reached (`ERR_TIMEOUT`). */
export const isWallClockSpent = (totals: LoopTotals, ceilings: LoopCeilings): boolean => ceilings.wallMs !== undefined && totals.wallMs >= ceilings.wallMs;

/** What the loop's wall-clock ceiling leaves after `totals` and `spentMs` more (this turn's stages so far); undefined without a ceiling. */
export const wallClockLeft = (totals: LoopTotals, ceilings: LoopCeilings, spentMs = 0): number | undefined =>
  ceilings.wallMs === undefined ? undefined : ceilings.wallMs - totals.wallMs - spentMs;

/** How many turns at the end of `turns` share the last turn's digest (0 when the last turn ran nothing). */
export function identicalDigestRun(turns: readonly TurnRecord[]): number {
  const last = turns.at(-1)?.digest ?? null;
  if (last === null) return 0;
  let count = 0;
  for (let index = turns.length - 1; index >= 0 && turns[index]?.digest === last; index -= 1) count += 1;
  return count;
}

/** N identical digests in a row (seed 002 §6). */
export const isNoProgress = (turns: readonly TurnRecord[], n: number): boolean => identicalDigestRun(turns) >= n;

/** True when a nudge turn already ran within the current run of identical digests. */
export function nudgedInRun(turns: readonly TurnRecord[]): boolean {
  const run = identicalDigestRun(turns);
  return turns.slice(turns.length - run).some((turn) => turn.kind === 'nudge');
}

/** Consecutive turns at the end of `turns` that ended in a run-time error. */
export function errorStreak(turns: readonly TurnRecord[]): number {
  let count = 0;
  for (let index = turns.length - 1; index >= 0 && isRunTimeFailure(turns[index]?.failure); index -= 1) count += 1;
  return count;
}

/** Consecutive turns before the last one whose (non-run-time) failure was fed back for repair. */
export function repairStreak(turns: readonly TurnRecord[]): number {
  let count = 0;
  for (let index = turns.length - 2; index >= 0; index -= 1) {
    const turn = turns[index];
    if (turn?.failure === undefined || isRunTimeFailure(turn.failure) || turn.decision?.kind !== 'CONTINUE') break;
    count += 1;
  }
  return count;
}
