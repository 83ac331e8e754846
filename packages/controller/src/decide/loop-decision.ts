/**
 * The decision closing each turn (seed 002 §5): CONTINUE feeds OUTPUT and
 * SCRATCHPAD into the next envelope; DONE ends with the final result; HALT
 * ends with a typed reason; PAUSE waits for a person (approval gate, v1
 * `await`) and is resumed by approve/deny. A CONTINUE may name the kind of
 * the next turn (a repair, the no-progress nudge, the final answer-now turn).
 */
import type { TurnKind } from '../loop/turn-record.ts';
import type { HaltReason } from './halt-reason.ts';

/** One turn's decision. Plain data: stored, logged and compared in replay. */
export type LoopDecision =
  | { readonly kind: 'CONTINUE'; readonly next?: Exclude<TurnKind, 'normal'> }
  | { readonly kind: 'DONE'; readonly result: string | null }
  | { readonly kind: 'HALT'; readonly reason: HaltReason; readonly message: string }
  | { readonly kind: 'PAUSE'; readonly reason: 'AWAITING_APPROVAL' | 'V1_AWAIT'; readonly message: string };

/** The decision kinds, for counters and the CLI. */
export type LoopDecisionKind = LoopDecision['kind'];
