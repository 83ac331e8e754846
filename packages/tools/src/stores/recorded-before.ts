/**
 * The cut-off of `IdempotenceStore.forgetBefore`: the store's own now less an
 * age, on the store's clock (the one that stamps `recordedAt`), so a host
 * whose clock differs from its store's cannot remove records younger than it
 * meant. A whole number of ms (a bigint column takes no fraction), never in
 * the future; `-Infinity` for an infinite age (nothing is that old: a store
 * need not ask).
 */
import type { Clock } from '../clock.ts';

/** Epoch ms before which a record is older than `olderThanMs` on `clock`. */
export function recordedBefore(clock: Clock, olderThanMs: number): number {
  const age = Number.isFinite(olderThanMs) ? Math.max(0, Math.floor(olderThanMs)) : Number.POSITIVE_INFINITY;
  return Math.floor(clock.now()) - age;
}
