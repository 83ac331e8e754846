/**
 * Session leases with fencing tokens, for a transcript store several hosts
 * (or several controllers) share. The store keeps a lease table (holder,
 * expiry, token per session: `LeaseTable`); this module keeps what the
 * store's own holders took and decides:
 *
 * - taking a lease (a new one, or over a lapsed one or one of the same
 *   holder) raises its token, and the token each holder took is remembered;
 * - a renewal extends only a lease whose token is still the one taken: when
 *   another holder took it over meanwhile (this host stalled past the
 *   lease's time), the renewal fails and the lease stays lost to this holder
 *   until its step gives it up — it is never taken back silently;
 * - a write of the session made under the lease (`lease-scope.ts`) checks,
 *   as part of the write, that the token is still the one taken, and fails
 *   with `LOOP_LEASE_LOST` otherwise, so nothing a stalled host writes after
 *   a takeover is kept;
 * - giving a lease up expires it but keeps its token, so the token never goes
 *   back to a value a stalled holder once had.
 */
import { LoopError } from '../errors/loop-error.ts';
import { leaseHolderOf } from '../session/lease-scope.ts';

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
  /** Set once a renewal or a write found another holder's token: the lease is not this holder's any more. */
  lost: boolean;
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
   * keeping it would make every later renewal fail). A renewal, or a take already settled, is left as it is.
   */
  settle(sid: string, holder: string, committed: boolean): void;
  /** Gives up `holder`'s lease on `sid` (nothing when it holds none here). */
  release(sid: string, holder: string): void;
  /**
   * The check a write of `sid` must pass, taken when the write is asked for:
   * undefined outside a step under a lease this store took; else a function
   * to call as part of the write (inside its transaction), which throws
   * `LOOP_LEASE_LOST` when the lease was taken over.
   */
  fenceFor(sid: string): (() => void) | undefined;
}

const keyOf = (sid: string, holder: string): string => `${holder}\u0000${sid}`;

/** Fenced leases over `table`. */
export function createFencedLeases(table: LeaseTable): FencedLeases {
  const held = new Map<string, HeldLease>();
  return {
    acquire(sid, holder, ttlMs, now) {
      const key = keyOf(sid, holder);
      const mine = held.get(key);
      if (mine !== undefined) {
        if (!mine.lost && table.renew(sid, holder, mine.token, now + ttlMs)) return true;
        mine.lost = true;
        return false;
      }
      const token = table.take(sid, holder, now + ttlMs, now);
      if (token === undefined) return false;
      held.set(key, { token, lost: false, settled: false });
      return true;
    },
    settle(sid, holder, committed) {
      const key = keyOf(sid, holder);
      const mine = held.get(key);
      if (mine === undefined || mine.settled) return;
      if (committed) mine.settled = true;
      else held.delete(key);
    },
    release(sid, holder) {
      const key = keyOf(sid, holder);
      const mine = held.get(key);
      held.delete(key);
      if (mine !== undefined && !mine.lost) table.expire(sid, holder, mine.token);
    },
    fenceFor(sid) {
      const holder = leaseHolderOf(sid);
      if (holder === undefined) return undefined;
      const mine = held.get(keyOf(sid, holder));
      // A step under a lease another store object took (two stores on one file) is fenced by that store.
      if (mine === undefined) return undefined;
      return () => {
        if (!mine.lost && table.isCurrent(sid, holder, mine.token)) return;
        mine.lost = true;
        throw new LoopError({
          code: 'LOOP_LEASE_LOST',
          message: `another host took over the lease on session ${sid} from holder ${holder} (this host stalled past its lease): the write was refused`,
          sid,
        });
      };
    },
  };
}
