/**
 * The layout of `__host.checkpoint`: the one piece of memory a context shares
 * with its worker (a `SharedArrayBuffer` of `Float64Array` cells), which only
 * the runtime writes. It writes where it is, which the worker reads as it
 * forwards each tool call and after it stopped a run (the isolate may be gone
 * by then), and the deadline of its own wall clock, which the worker holds it
 * to (`runtime-deadline.ts`). No imports: the evaluator's bundle includes it.
 */

/** Cells of `__host.checkpoint`. */
export const CHECKPOINT_CELLS = 3;
/** `[0]`: the source line the runtime last said it was at. */
export const CHECKPOINT_LINE = 0;
/** `[1]`: the steps (fuel) it had taken then. */
export const CHECKPOINT_STEPS = 1;
/**
 * `[2]`: the deadline of the runtime's own wall clock, when it keeps one, in
 * epoch ms on `__host.now()`'s clock (0: none). The evaluator writes it as it
 * starts its clock.
 */
export const CHECKPOINT_DEADLINE = 2;
