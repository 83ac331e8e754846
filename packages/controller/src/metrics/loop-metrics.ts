/**
 * Counters over every session of one controller (seed 002 §9, seed 003 §10):
 * decisions by kind, halts by reason, failed validations, turns, the turns
 * `resume` ran again, tokens and cost. Fed from `decision` and `reply`
 * events; `snapshot()` returns plain data.
 */
import type { LoopEvent } from '../events/loop-event.ts';

/** A snapshot of the counters. */
export interface LoopMetrics {
  /** Turns decided for the first time (a turn later run again after a HALT counts here at that HALT). */
  readonly turns: number;
  /**
   * Later decisions of turns run again after a HALT (cancelled, or their model call failed) by `resume` or a step:
   * a turn reopened twice adds 2. Not in `turns`; `decisions` and `halts` count every decision, these too.
   */
  readonly reruns: number;
  readonly decisions: Readonly<Record<string, number>>;
  readonly halts: Readonly<Record<string, number>>;
  /** Turn runs whose envelope, parse or check failed (nothing ran). */
  readonly failedValidations: number;
  /** What the model calls this controller made were billed: a reply a resumed turn reuses is not counted again. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number;
}

/** The live counters. */
export interface LoopMetricsCollector {
  observe(event: LoopEvent): void;
  snapshot(): LoopMetrics;
}

const VALIDATION_KINDS = new Set(['envelope', 'syntax', 'check', 'permission']);

/** Creates zeroed counters. */
export function createLoopMetrics(): LoopMetricsCollector {
  const decisions: Record<string, number> = {};
  const halts: Record<string, number> = {};
  let turns = 0, reruns = 0, failedValidations = 0, inputTokens = 0, outputTokens = 0, costUsd = 0;
  return {
    observe(event) {
      if (event.type === 'reply' || event.type === 'call-failed') {
        // Counted per model call, when it is made: a turn reopened with its recorded reply makes none; a failed call
        // counts what it streamed before it failed.
        inputTokens += event.inputTokens;
        outputTokens += event.outputTokens;
        costUsd += event.costUsd;
        return;
      }
      // A session halted before its first turn: a decision all the same, with no turn and no decision event.
      if (event.type === 'loop-end' && event.beforeFirstTurn === true) {
        decisions.HALT = (decisions.HALT ?? 0) + 1;
        if (event.result.reason !== null) halts[event.result.reason] = (halts[event.result.reason] ?? 0) + 1;
        return;
      }
      if (event.type !== 'decision') return;
      decisions[event.decision.kind] = (decisions[event.decision.kind] ?? 0) + 1;
      if (event.decision.kind === 'HALT') halts[event.decision.reason] = (halts[event.decision.reason] ?? 0) + 1;
      // A turn counts once, at its final decision (not at an approval's pause, nor again when a denial re-decides it);
      // a turn `resume` reopened counts as a rerun (its first decision, a HALT, counted it wherever it was made).
      if (event.record.phase !== 'decided' || event.redecided === true) return;
      if ((event.record.reruns ?? 0) > 0) reruns += 1;
      else turns += 1;
      if (event.record.failure !== undefined && VALIDATION_KINDS.has(event.record.failure.kind)) failedValidations += 1;
    },
    snapshot: () => ({ turns, reruns, decisions: { ...decisions }, halts: { ...halts }, failedValidations, inputTokens, outputTokens, costUsd }),
  };
}
