/**
 * The tokens of the session leases one store took, and which of them a write
 * is made under. Shared by every store that fences its writes (memory and
 * SQLite through `fenced-leases.ts`, PostgreSQL in its own package): how a
 * store takes, renews and checks a token is its own affair (one statement,
 * a table of rows…); what a write of a session is fenced by is decided here,
 * the same way for all:
 *
 * - not in a step under a lease (`lease-scope.ts`), or under a lease this
 *   store did not take (a store that keeps its leases elsewhere and writes
 *   through this one): not fenced;
 * - in a running step under a lease this store took: the write must check,
 *   inside its own transaction or statement, that the token is still the
 *   session's (`held`);
 * - made by code that outlived a step this store fenced (a timer it started),
 *   after that step gave its lease up: refused without writing (`ended`).
 */
import { LoopError } from '../errors/loop-error.ts';
import { leaseOf } from '../session/lease-scope.ts';

/** What a write of a session must check: the token of the lease it is made under, or that its step has ended. */
export type WriteFence<T> = { readonly kind: 'held'; readonly holder: string; readonly token: T } | { readonly kind: 'ended'; readonly holder: string };

/** One store's taken leases, by session and holder. */
export interface LeaseTokens<T> {
  /** The token `holder` took the lease on `sid` with through this store, if it holds one here. */
  get(sid: string, holder: string): T | undefined;
  /** Records a lease taken (or taken again) through this store. */
  set(sid: string, holder: string, token: T): void;
  /** Forgets a lease (given up, or a take that did not commit). */
  delete(sid: string, holder: string): void;
  /**
   * The fence of a write of `sid` asked for now: undefined when it is not fenced. Call it when the write is asked for
   * (it reads the caller's lease scope), not later.
   */
  fenceOf(sid: string): WriteFence<T> | undefined;
}

const keyOf = (sid: string, holder: string): string => `${holder}\u0000${sid}`;

/** Why a fenced write was refused. */
export type LeaseLostReason = 'taken-over' | 'step-ended';

const reasons: Record<LeaseLostReason, string> = {
  'taken-over': 'another host took over the lease while this host stalled past it',
  'step-ended': 'it was made by code of a step that has ended, under the lease that step gave up',
};

/** The `LOOP_LEASE_LOST` error of a refused write of `sid`, the same words from every store. */
export function leaseLostError(sid: string, holder: string, reason: LeaseLostReason): LoopError {
  return new LoopError({ code: 'LOOP_LEASE_LOST', message: `the write of session ${sid} was refused: ${reasons[reason]} (holder ${holder})`, sid });
}

/** An empty set of lease tokens. */
export function createLeaseTokens<T>(): LeaseTokens<T> {
  const held = new Map<string, T>();
  /** The steps (their lease scopes) whose writes this store checked against a lease it took. */
  const fencedSteps = new WeakSet<object>();
  return {
    get: (sid, holder) => held.get(keyOf(sid, holder)),
    set(sid, holder, token) {
      held.set(keyOf(sid, holder), token);
    },
    delete(sid, holder) {
      held.delete(keyOf(sid, holder));
    },
    fenceOf(sid) {
      const lease = leaseOf(sid);
      if (lease === undefined) return undefined;
      const { holder } = lease;
      // Code that outlived a step this store fenced: the lease is given up, maybe taken over. Another store it writes
      // to (a replay's scratch store, a mirror) never checked that step: not its affair.
      if (lease.ended) return fencedSteps.has(lease) ? { kind: 'ended', holder } : undefined;
      const token = held.get(keyOf(sid, holder));
      if (token === undefined) return undefined;
      fencedSteps.add(lease);
      return { kind: 'held', holder, token };
    },
  };
}
