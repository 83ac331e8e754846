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
