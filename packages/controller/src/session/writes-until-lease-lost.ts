/**
 * The transcript store a step under a lease writes through: the same store,
 * except that once the lease's signal has aborted (a renewal found the lease
 * taken over) every write is refused with that reason (`LOOP_LEASE_LOST`)
 * before it reaches the store. A fencing store (SQLite, memory, PostgreSQL) refuses such
 * writes in their own transaction anyway; this also keeps a store whose
 * leases do not fence from recording the stopped step — its cancellation —
 * over the turn of the host that owns the session now.
 */
import type { TranscriptStore } from '../store/transcript-store.ts';

/** `store`, its writes refused once `lease` has aborted. */
export function writesUntilLeaseLost(store: TranscriptStore, lease: AbortSignal): TranscriptStore {
  const unlessLost = <A extends unknown[]>(write: (...args: A) => Promise<void>) => (...args: A): Promise<void> =>
    lease.aborted ? Promise.reject(lease.reason) : write.apply(store, args);
  return {
    createSession: unlessLost(store.createSession),
    getSession: (sid) => store.getSession(sid),
    updateSession: unlessLost(store.updateSession),
    listSessions: (options) => store.listSessions(options),
    saveTurn: unlessLost(store.saveTurn),
    listTurns: (sid) => store.listTurns(sid),
    lastTurn: (sid) => store.lastTurn(sid),
    // The step never opens tool stores or takes leases through its context's store; the gate does, on the store itself.
    close: () => store.close(),
  };
}
