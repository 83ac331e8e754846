/**
 * Single flight across hosts: wraps the in-process gate so each step also
 * holds the store's lease on the session (`TranscriptStore.acquireLease`),
 * renewed while the step runs and given up after it. Another host sharing
 * the store waits for it (or gets `LOOP_SESSION_BUSY` in reject mode); the
 * lease of a host that died lapses after `leaseMs`. A store without leases
 * leaves the gate as it is. The step runs under the lease's scope
 * (`lease-scope.ts`), so a store that fences (SQLite, memory, PostgreSQL) refuses the
 * step's writes with `LOOP_LEASE_LOST` once another host took the lease over
 * (this host stalled past `leaseMs`); a renewal then fails instead of taking
 * the lease back, and aborts the step's lease signal, which the loop adds to
 * the step's own (`drive-loop.ts`), so the step stops instead of running its
 * program for nothing.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { isLoopError, LoopError } from '../errors/loop-error.ts';
import type { TranscriptStore } from '../store/transcript-store.ts';
import { runUnderLease } from './lease-scope.ts';
import { cancelledWhileWaiting, type SessionGate } from './session-gate.ts';

/** Options of {@link leaseSessions}. */
export interface SessionLeaseOptions {
  /** This host's id in the lease table. */
  readonly holder: string;
  /** How long a lease lives without renewal (renewed every third of it). */
  readonly leaseMs: number;
  readonly busy: 'wait' | 'reject';
  /** How often a waiting host tries again. Default 50 ms. */
  readonly pollMs?: number;
}

/** Waits `ms`, or less when `signal` aborts (the caller then sees the abort). */
const pause = (ms: number, signal: AbortSignal | undefined): Promise<unknown> => sleep(ms, undefined, signal === undefined ? {} : { signal }).catch(() => undefined);

function storeFailure(action: string, sid: string, error: unknown): LoopError {
  if (isLoopError(error)) return error;
  return new LoopError({ code: 'LOOP_STORE_ERROR', message: `the transcript store failed in ${action}: ${error instanceof Error ? error.message : String(error)}`, sid, cause: error });
}

/** The gate, with the store's session lease held around every step. */
export function leaseSessions(gate: SessionGate, store: Pick<TranscriptStore, 'acquireLease' | 'releaseLease'>, options: SessionLeaseOptions): SessionGate {
  if (store.acquireLease === undefined || store.releaseLease === undefined) return gate;
  const acquire = (sid: string): Promise<boolean> => (store.acquireLease as NonNullable<TranscriptStore['acquireLease']>).call(store, sid, options.holder, options.leaseMs);
  const release = (sid: string): Promise<void> => (store.releaseLease as NonNullable<TranscriptStore['releaseLease']>).call(store, sid, options.holder);

  /**
   * Takes the lease, waiting while another host holds it; a `signal` aborting meanwhile gives up (LOOP_CANCELLED).
   * Resolves with when the request that took it was sent (`performance.now()`): the lease runs from no earlier.
   */
  async function hold(sid: string, signal: AbortSignal | undefined, onWait: ((behind: 'another host') => void) | undefined): Promise<number> {
    for (let waited = false; ; waited = true) {
      // Checked only once this call has waited: one that finds the lease free runs its step, which sees the abort.
      if (waited && signal?.aborted === true) throw cancelledWhileWaiting(sid, 'another host');
      let held: boolean;
      const sent = performance.now();
      try {
        held = await acquire(sid);
      } catch (error) {
        throw storeFailure('acquireLease', sid, error);
      }
      if (held) return sent;
      if (options.busy === 'reject') throw new LoopError({ code: 'LOOP_SESSION_BUSY', message: `another host is running a turn of session ${sid}; try again once it is done, or make the loop with createAskLoop({ busy: 'wait' }) to wait for it`, sid });
      // Said once: a host that died holds its lease until it runs out, which may be seconds of silence otherwise.
      if (!waited) onWait?.('another host');
      await pause(options.pollMs ?? 50, signal);
    }
  }

  return {
    busy: (sid) => gate.busy(sid),
    run: (sid, work, signal, onWait) =>
      gate.run(
        sid,
        async () => {
          // When the last request that found the lease held was sent: no other host can take it before leaseMs after.
          let confirmedAt = await hold(sid, signal, onWait);
          // A renewal that finds the lease taken over stops the step (its model call, its program); a renewal that fails
          // for the store's sake is not fatal here: the turn's own saves report a broken store.
          const lost = new AbortController();
          /** Renews the lease: true while it is this host's (noting when that was confirmed), false once taken over (the step told to stop). */
          const renew = async (): Promise<boolean> => {
            const sent = performance.now();
            const held = await acquire(sid);
            if (held) confirmedAt = Math.max(confirmedAt, sent);
            else lost.abort(new LoopError({ code: 'LOOP_LEASE_LOST', message: `another host took over the lease on session ${sid} while this host's step ran`, sid }));
            return held;
          };
          // Before a tool's write acts. Renewals confirm the lease every third of leaseMs; one not confirmed for half of
          // it was held back (a stalled host): renewed first, so the write acts only while no other host can own the
          // session (leases of hosts whose clocks run at one rate), and not at all once one took it over.
          const confirm = async (): Promise<void> => {
            if (lost.signal.aborted) throw lost.signal.reason;
            if (performance.now() - confirmedAt < options.leaseMs / 2) return;
            let held: boolean;
            try {
              held = await renew();
            } catch (error) {
              throw storeFailure('acquireLease', sid, error);
            }
            if (!held) throw lost.signal.reason;
          };
          const renewing = setInterval(() => void renew().catch(() => undefined), Math.max(1, Math.floor(options.leaseMs / 3)));
          renewing.unref();
          try {
            // Under the lease's scope, so a store that fences writes checks this holder's lease on each of them.
            return await runUnderLease(sid, options.holder, work, lost.signal, confirm);
          } finally {
            clearInterval(renewing);
            await release(sid).catch(() => undefined);
          }
        },
        signal,
        onWait,
      ),
  };
}
