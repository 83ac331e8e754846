/**
 * Why a loop halted: the specs' `ERR_*` names (seed 002 §8, seed 003) plus the
 * v1 dialect's model-requested stops. A HALT is data, never an exception.
 */

/** Every halt reason, sorted, with when the host chooses it. */
export const HALT_REASONS = {
  ERR_BUDGET: 'a token or cost ceiling of the loop was reached',
  ERR_CANCELLED: 'the caller aborted the loop (Ctrl-C, an AbortSignal); resume runs the turn again',
  ERR_ENV_ENCODING: 'the reply is not valid UTF-8',
  ERR_ENV_MARKERS_INVALID: 'the reply has no recoverable envelope (missing or malformed markers)',
  ERR_ENV_ORDER: 'the reply\'s envelope sections are out of order',
  ERR_ENV_SECTION_MISSING: 'the reply\'s envelope lacks a required section (USERDATA or ACTIONS)',
  ERR_ENV_SIZE: 'the reply\'s envelope or a section exceeds its size limit, or the task is too large for an envelope\'s USERDATA (the session halts before its first turn)',
  ERR_MAX_TURNS_EXCEEDED: 'the turn ceiling was reached without DONE',
  ERR_NO_PROGRESS: 'N consecutive turns produced the same OUTPUT and SCRATCHPAD digest',
  ERR_PERMISSIONS: 'the program failed the whole-program check against the agent\'s policy; nothing of it ran',
  ERR_PROVIDER: 'the model call failed after its retries (or a scripted model ran out of replies); resume asks again',
  ERR_QUOTA: 'a per-turn quota (fuel, memory, tool calls, the tool-call data budget, output and scratchpad size, loop iterations, call depth, value sizes) or a loop total (fuel, tool calls) was exceeded',
  ERR_SYNTAX: 'the program does not parse or fails a check before the run (a structural rule, a function or tool called with the wrong arguments, a write to a read-only global, a map key that is a never-set name); nothing of it ran',
  ERR_TIMEOUT: 'the per-turn wall clock or the loop\'s wall-clock ceiling was exceeded',
  ERR_TOO_MANY_ERRORS: 'maxErrorStreak consecutive turns (the one turn, without a tool loop) ended in a run-time error',
  ERR_USERDATA_SCHEMA: 'the task (USERDATA) is not a valid object with a string subject',
  V1_ABORT: 'the model requested abort (v1 dialect); its reason is kept',
  V1_HALT: 'the model requested halt (v1 dialect); its reason is kept',
} as const;

/** A halt reason (see {@link HALT_REASONS}). */
export type HaltReason = keyof typeof HALT_REASONS;

/**
 * The halts `resume` runs the turn again after, because nothing of the turn's
 * program ran: the caller cancelled it (`ERR_CANCELLED`), or the model could
 * not be asked or did not answer (`ERR_PROVIDER` with the provider's failure:
 * no key, an outage that outlasted the retries, a rate limit). Every other
 * HALT is final.
 */
export const RESUMABLE_HALT_REASONS: readonly HaltReason[] = Object.freeze(['ERR_CANCELLED', 'ERR_PROVIDER']);

/**
 * Provider failures asking again cannot mend: the turn re-sends the same
 * request (`PROVIDER_BAD_REQUEST`, e.g. a prompt too long for the model), or
 * a replay's recording is wrong.
 */
const UNCHANGING_PROVIDER_FAILURES: ReadonlySet<string> = new Set(['PROVIDER_BAD_REQUEST', 'PROVIDER_REPLAY_INVALID']);

/**
 * Whether `resume` runs again the turn that halted for `reason` with
 * `failure` (the turn's, `LoopResult.failure`): always after `ERR_CANCELLED`;
 * after `ERR_PROVIDER` only when the provider's call failed in a way asking
 * again may mend (not a plugin's `decide` hook halting with that reason
 * after the program ran, nor a request the provider refused as malformed).
 */
export function isResumableHalt(reason: string | null | undefined, failure?: { readonly code: string; readonly kind: string } | null): boolean {
  if (reason === 'ERR_CANCELLED') return true;
  return reason === 'ERR_PROVIDER' && failure?.kind === 'provider' && !UNCHANGING_PROVIDER_FAILURES.has(failure.code);
}
