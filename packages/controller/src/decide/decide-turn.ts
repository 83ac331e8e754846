/**
 * The decision of one turn: a pure function of the agent and the stored
 * records (the current turn last). Precedence: cancel > a failure that halts
 * (or is fed back under `repair` while the ceilings allow another turn) > the model's control (abort > halt >
 * await > done) > one-turn agents > the error streak > ceilings (with the
 * answer-now turn) > the progress guard (with its nudge) > CONTINUE; a cancel turns CONTINUE into
 * HALT `ERR_CANCELLED`.
 */
import type { ResolvedAgentDefinition } from '../agent/agent-definition.ts';
import type { TurnRecord } from '../loop/turn-record.ts';
import { failureLine } from './failure-line.ts';
import { haltReasonOf, isRepairableFailure, isRunTimeFailure } from './halt-reason-of.ts';
import type { HaltReason } from './halt-reason.ts';
import type { LoopDecision } from './loop-decision.ts';
import { foldTally, tallyOf, type LoopTally } from './loop-tally.ts';
import { isBudgetSpent, isQuotaSpent, isWallClockSpent } from './stop-condition.ts';

/** What the decision reads. */
export interface DecideInput {
  readonly agent: ResolvedAgentDefinition;
  /** Every decided turn of the session, then the current one. */
  readonly turns: readonly TurnRecord[];
  /** The caller aborted the loop. */
  readonly cancelled?: boolean;
}

const halt = (reason: HaltReason, message: string): LoopDecision => ({ kind: 'HALT', reason, message });

/** Decides the last turn of `input.turns`. */
export function decideTurn({ agent, turns, cancelled = false }: DecideInput): LoopDecision {
  const current = turns.at(-1);
  if (current === undefined) throw new TypeError('decideTurn needs the current turn');
  return decideAfter(agent, tallyOf(turns.slice(0, -1)), current, cancelled);
}

/**
 * Decides `current` after the session's decided turns folded into `history`
 * (the same answer as {@link decideTurn} over those records and `current`).
 */
export function decideAfter(agent: ResolvedAgentDefinition, history: LoopTally, current: TurnRecord, cancelled = false): LoopDecision {
  const decision = decideByRules(agent, history, current);
  // A cancel stops only a loop that would go on: a turn that finished (DONE, a halt) keeps its decision.
  return cancelled && decision.kind === 'CONTINUE' ? halt('ERR_CANCELLED', 'the caller aborted the loop; the session can be resumed') : decision;
}

function decideByRules(agent: ResolvedAgentDefinition, history: LoopTally, current: TurnRecord): LoopDecision {
  const failure = current.failure;
  if (failure !== undefined && !isRunTimeFailure(failure)) {
    if (!isRepairableFailure(failure) || history.repairStreak >= agent.repair) return halt(haltReasonOf(failure), failureLine(failure));
    // A repair is one more turn: the loop's ceilings come first, as after a run-time error.
    return ceilingDecision(agent, foldTally(history, current), current) ?? { kind: 'CONTINUE', next: 'repair' };
  }
  const control = current.control;
  const reason = control?.reason ?? '';
  switch (control?.signal) {
    case 'abort': return halt('V1_ABORT', reason === '' ? 'the model aborted the loop' : reason);
    case 'halt': return halt('V1_HALT', reason === '' ? 'the model halted the loop' : reason);
    // An approved await goes on to another turn: the loop's ceilings come first, as for a continue (approving each
    // await in turn took the loop past maxTurns and its token ceiling).
    case 'await': return ceilingDecision(agent, foldTally(history, current), current) ?? { kind: 'PAUSE', reason: 'V1_AWAIT', message: reason === '' ? 'the model asked for approval' : reason };
    case 'done': return { kind: 'DONE', result: control.result ?? null };
    default: break;
  }
  const runTimeError = isRunTimeFailure(failure);
  if (!agent.toolLoopPermitted) {
    if (runTimeError) return halt('ERR_TOO_MANY_ERRORS', 'the one turn this agent may take (toolLoopPermitted: false) ended in a run-time error');
    return { kind: 'DONE', result: current.output.trim() === '' ? null : current.output.trim() };
  }
  if (agent.dialect === 'v1' && control?.signal !== 'continue' && !runTimeError) {
    // Seed 001: only an explicit continue continues; otherwise the loop returns its OUTPUT.
    return { kind: 'DONE', result: current.output.trim() === '' ? null : current.output.trim() };
  }
  // The current turn folded in: its streaks, digest run and the totals with it.
  const after = foldTally(history, current);
  if (runTimeError && after.errorStreak >= agent.maxErrorStreak) {
    return halt('ERR_TOO_MANY_ERRORS', `${agent.maxErrorStreak} turns in a row ended in a run-time error (last: ${failure?.code})`);
  }
  const ceiling = ceilingDecision(agent, after, current);
  if (ceiling !== undefined) return ceiling;
  if (after.digestRun >= agent.noProgressN) {
    if (agent.nudge && !after.nudged) return { kind: 'CONTINUE', next: 'nudge' };
    // The turns it counted: with the nudge, one more than noProgressN (the nudged turn repeated itself too).
    return halt('ERR_NO_PROGRESS', `${after.digestRun} turns in a row produced the same OUTPUT and SCRATCHPAD${after.nudged ? ', the last after being told it was repeating itself' : ''}`);
  }
  return { kind: 'CONTINUE' };
}

/**
 * What the loop's ceilings decide once `current` is folded into `after`: HALT
 * on a spent wall clock, quota, budget or turn count (the last two after one
 * `answer-now` turn when the agent has it), or undefined while they allow
 * another turn.
 */
function ceilingDecision(agent: ResolvedAgentDefinition, after: LoopTally, current: TurnRecord): LoopDecision | undefined {
  const totals = after.totals;
  if (isWallClockSpent(totals, agent.ceilings)) return halt('ERR_TIMEOUT', `the loop's wall-clock ceiling of ${agent.ceilings.wallMs} ms is spent`);
  if (isQuotaSpent(totals, agent.ceilings)) return halt('ERR_QUOTA', `the loop's fuel or tool-call total is spent (fuel ${totals.fuel}, tool calls ${totals.toolCalls})`);
  const limit: HaltReason | undefined = isBudgetSpent(totals, agent.ceilings) ? 'ERR_BUDGET' : current.turnIndex >= agent.ceilings.maxTurns ? 'ERR_MAX_TURNS_EXCEEDED' : undefined;
  if (limit === undefined) return undefined;
  if (agent.answerNow && current.kind !== 'answer-now') return { kind: 'CONTINUE', next: 'answer-now' };
  return limit === 'ERR_BUDGET'
    ? halt(limit, `the loop's token or cost ceiling is spent (${totals.inputTokens + totals.outputTokens} tokens, $${totals.costUsd.toFixed(4)})`)
    : halt(limit, `${agent.ceilings.maxTurns} turn${agent.ceilings.maxTurns === 1 ? '' : 's'} without DONE`);
}
