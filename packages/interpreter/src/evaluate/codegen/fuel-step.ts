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
