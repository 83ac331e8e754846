/**
 * Session leases with fencing tokens, for a transcript store several hosts
 * (or several controllers) share. The store keeps a lease table (holder,
 * expiry, token per session: `LeaseTable`); this module keeps the token each
 * of the store's own holders took (`lease-tokens.ts`, which also decides
 * which writes are fenced), and decides:
 *
 * - taking a lease (a new one, or over a lapsed one or one of the same
 *   holder) raises its token;
 * - a renewal extends only a lease whose token is still the one taken: once
 *   another holder took it over (this host stalled past the lease's time),
 *   every renewal fails — the token only goes up, so even after the other
 *   holder let go the lease is never taken back in the middle of a step;
 * - a write of the session made under the lease (`lease-scope.ts`) checks,
 *   as part of the write, that the token is still the one taken, and fails
 *   with `LOOP_LEASE_LOST` otherwise; so does a write made by code that
 *   outlived a step this store fenced (a timer it started), after the lease
 *   was given up;
 * - giving a lease up expires it but keeps its token.
 *
 * Nothing is concluded from a check inside a transaction that may still roll
 * back (another holder's take in the same batch): each renewal and each
 * write asks the table again.
 */
import { createLeaseTokens, leaseLostError } from './lease-tokens.ts';

/** A store's lease rows: one per session, kept (expired) after release. Each method is one atomic step of the store. */
export interface LeaseTable {
  /** Takes the lease for `holder` until `expiresAt` if it is free, lapsed at `now`, or `holder`'s; the new token, or undefined. */
  take(sid: string, holder: string, expiresAt: number, now: number): number | undefined;
  /** Extends `holder`'s lease to `expiresAt` if its token is still `token`; true when it did. */
  renew(sid: string, holder: string, token: number, expiresAt: number): boolean;
  /** Expires `holder`'s lease if its token is still `token`, keeping the row. */
  expire(sid: string, holder: string, token: number): void;
  /** True while `holder` still has the lease with `token` (expired or not: nobody took it over). */
  isCurrent(sid: string, holder: string, token: number): boolean;
}

/** A holder's lease on a session as the store took it. */
interface HeldLease {
  readonly token: number;
  /** False from a take until the store says whether the transaction that took it committed (`settle`). */
  settled: boolean;
}

/** The store's side of leases, over its table. */
export interface FencedLeases {
  /**
   * Takes or renews `holder`'s lease on `sid` for `ttlMs` from `now`; true when `holder` holds it now. A store whose
   * writes commit later calls `settle` once the transaction that ran this committed or failed.
   */
  acquire(sid: string, holder: string, ttlMs: number, now: number): boolean;
  /**
   * After `acquire`'s transaction: a take that did not commit is forgotten (its token never reached the table, and
   * keeping it would make every later renewal fail). A renewal, or a take already settled, is left as it is. It acts
   * on the holder's current entry for the session, so a store calls it before it runs another `acquire` of the same
   * session and holder (the controller's lease gate never has two in flight).
   */
  settle(sid: string, holder: string, committed: boolean): void;
  /** Gives up `holder`'s lease on `sid` (nothing when it holds none here). */
  release(sid: string, holder: string): void;
  /**
   * The check a write of `sid` must pass, taken when the write is asked for:
   * undefined when the write is not made in a step under a lease of `sid`
   * this store took; else a function to call as part of the write (inside its
   * transaction), which throws `LOOP_LEASE_LOST` when the lease's token was
   * taken over, or when the step the write belongs to has ended.
   */
  fenceFor(sid: string): (() => void) | undefined;
}

/** Fenced leases over `table`. */
export function createFencedLeases(table: LeaseTable): FencedLeases {
  const held = createLeaseTokens<HeldLease>();
  return {
    acquire(sid, holder, ttlMs, now) {
      const mine = held.get(sid, holder);
      if (mine !== undefined) return table.renew(sid, holder, mine.token, now + ttlMs);
      const token = table.take(sid, holder, now + ttlMs, now);
      if (token === undefined) return false;
      held.set(sid, holder, { token, settled: false });
      return true;
    },
    settle(sid, holder, committed) {
      const mine = held.get(sid, holder);
      if (mine === undefined || mine.settled) return;
      if (committed) mine.settled = true;
      else held.delete(sid, holder);
    },
    release(sid, holder) {
      const mine = held.get(sid, holder);
      held.delete(sid, holder);
      if (mine !== undefined) table.expire(sid, holder, mine.token);
    },
    fenceFor(sid) {
      const fence = held.fenceOf(sid);
      if (fence === undefined) return undefined;
      const { holder } = fence;
      if (fence.kind === 'ended') {
        return () => {
          throw leaseLostError(sid, holder, 'step-ended');
        };
      }
      const { token } = fence.token;
      return () => {
        if (!table.isCurrent(sid, holder, token)) throw leaseLostError(sid, holder, 'taken-over');
      };
    },
  };
}
