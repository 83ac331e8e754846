/**
 * Extra room the sandbox's wall clock leaves above the evaluator's typed one
 * (`wallMs`), for a tool call that overruns a little: the evaluator reads its
 * clock as the call returns, so the sandbox's backstop fires only when the
 * evaluator's own `SCRIPT_TIMEOUT` did not. While the run computes, the
 * sandbox's worker holds it to the evaluator's own deadline instead, 20 ms
 * past it (`sandbox/runtime-deadline.ts`).
 */
export const WALL_GRACE_MS = 250;
