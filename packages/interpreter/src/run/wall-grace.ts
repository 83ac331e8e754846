/**
 * Extra room the sandbox's wall clock leaves above the evaluator's typed one
 * (`wallMs`): the evaluator checks its clock between steps, and a tool call
 * or a long built-in may overrun a little, so the sandbox's backstop fires
 * only when the evaluator's own `SCRIPT_TIMEOUT` did not.
 */
export const WALL_GRACE_MS = 250;
