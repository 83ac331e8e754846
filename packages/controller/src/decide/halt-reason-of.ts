/**
 * The one table from a failure's kind to its halt reason: the loop maps
 * interpreter error KINDS (never codes), envelope codes and provider errors.
 */
import type { TurnFailure } from '../loop/turn-record.ts';
import { HALT_REASONS, type HaltReason } from './halt-reason.ts';

const BY_KIND: Record<Exclude<TurnFailure['kind'], 'envelope' | 'runtime' | 'internal'>, HaltReason> = {
  syntax: 'ERR_SYNTAX',
  check: 'ERR_SYNTAX',
  permission: 'ERR_PERMISSIONS',
  approval: 'ERR_PERMISSIONS',
  quota: 'ERR_QUOTA',
  timeout: 'ERR_TIMEOUT',
  cancelled: 'ERR_CANCELLED',
  provider: 'ERR_PROVIDER',
};

/** True for failures of a program that ran and failed (fed back as SYSTEM_ERROR, counted by maxErrorStreak). */
export const isRunTimeFailure = (failure: TurnFailure | undefined): boolean => failure?.kind === 'runtime' || failure?.kind === 'internal';

/** The halt reason of a failure that stops the loop (every kind but run-time ones). */
export function haltReasonOf(failure: TurnFailure): HaltReason {
  if (failure.kind === 'envelope') return Object.hasOwn(HALT_REASONS, failure.code) ? (failure.code as HaltReason) : 'ERR_ENV_MARKERS_INVALID';
  if (failure.kind === 'runtime' || failure.kind === 'internal') return 'ERR_TOO_MANY_ERRORS';
  return BY_KIND[failure.kind];
}

/**
 * Whether the agent's `repair` may feed `failure` back to the model instead of halting: a failure of the reply or
 * of the program before or outside its run (envelope, syntax, a policy refusal or a denial, a per-turn quota or
 * timeout). Not a run-time failure (always fed back, counted by `maxErrorStreak`), a failed model call (there is no
 * reply to mend) or a cancel (the caller stopped the loop).
 */
export function isRepairableFailure(failure: TurnFailure): boolean {
  if (isRunTimeFailure(failure)) return false;
  const reason = haltReasonOf(failure);
  return reason !== 'ERR_PROVIDER' && reason !== 'ERR_CANCELLED';
}
