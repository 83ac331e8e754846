/**
 * One unit of fuel as generated code: a single decrement of the machine's
 * window (`Machine.left`) on the fast path; `Machine.refill` takes the step
 * exactly (fuel exhaustion, the wall clock) when the window is used up. The
 * position expression is only evaluated on that slow path.
 */

/** The statement that spends one unit of fuel at `position` (an expression for a `Position`). */
export function fuelStep(position: string): string {
  return `if (--M.left < 0) M.refill(${position});`;
}

/**
 * Two steps with nothing observable between them (a loop iteration and the
 * first statement of its body), spent in one decrement; taken one by one
 * when the window cannot hold both. `second` null: just the first.
 */
export function fuelSteps(first: string, second: string | null): string {
  return second === null ? fuelStep(first) : `if ((M.left -= 2) < 0) M.refillTwo(${first}, ${second});`;
}

/**
 * A function's entry step and its first statement's step in one decrement
 * (`second` null: just the entry). The slow path keeps them apart: an error
 * at the first statement carries the function's own frame, as it would
 * thrown inside the function.
 */
export function entrySteps(entry: string, second: string | null, name: string): string {
  return second === null ? fuelStep(entry) : `if ((M.left -= 2) < 0) M.enterTwo(${entry}, ${second}, ${name});`;
}
