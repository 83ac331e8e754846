/**
 * Counters over every session of one controller (seed 002 §9, seed 003 §10):
 * decisions by kind, halts by reason, failed validations, turns, tokens and
 * cost. Fed from `decision` events; `snapshot()` returns plain data.
 */
import type { LoopEvent } from '../events/loop-event.ts';

/** A snapshot of the counters. */
export interface LoopMetrics {
  readonly turns: number;
  readonly decisions: Readonly<Record<string, number>>;
  readonly halts: Readonly<Record<string, number>>;
  /** Turns whose envelope, parse or check failed (nothing ran). */
  readonly failedValidations: number;
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
  let turns = 0, failedValidations = 0, inputTokens = 0, outputTokens = 0, costUsd = 0;
  return {
    observe(event) {
      if (event.type !== 'decision') return;
      decisions[event.decision.kind] = (decisions[event.decision.kind] ?? 0) + 1;
      if (event.decision.kind === 'HALT') halts[event.decision.reason] = (halts[event.decision.reason] ?? 0) + 1;
      // A turn counts once, at its final decision (not at an approval's pause, nor again when a denial re-decides it).
      if (event.record.phase !== 'decided' || event.redecided === true) return;
      turns += 1;
      if (event.record.failure !== undefined && VALIDATION_KINDS.has(event.record.failure.kind)) failedValidations += 1;
      inputTokens += event.record.usage.inputTokens;
      outputTokens += event.record.usage.outputTokens;
      costUsd += event.record.usage.costUsd;
    },
    snapshot: () => ({ turns, decisions: { ...decisions }, halts: { ...halts }, failedValidations, inputTokens, outputTokens, costUsd }),
  };
}
