/**
 * The layout of `__host.checkpoint`: the one piece of memory a context shares
 * with its worker (a `SharedArrayBuffer` of `Float64Array` cells). The runtime
 * writes where it is; the worker reads it as it forwards each tool call and
 * after it stopped a run (the isolate may be gone by then). No imports: the
 * evaluator's bundle includes it.
 */

/** Cells of `__host.checkpoint`. */
export const CHECKPOINT_CELLS = 2;
/** `[0]`: the source line the runtime last said it was at. */
export const CHECKPOINT_LINE = 0;
/** `[1]`: the steps (fuel) it had taken then. */
export const CHECKPOINT_STEPS = 1;
