/**
 * Which store lease the running code writes under. The lease gate
 * (`session-lease.ts`) runs each step inside `runUnderLease(sid, holder, …)`;
 * a store that fences its writes asks `leaseHolderOf(sid)` when a write of
 * session `sid` is made, and checks, in the transaction that writes it, that
 * this holder's lease was not taken over since it was acquired. The scope
 * follows the step through every `await` (AsyncLocalStorage); a write of
 * another session from inside the step (an `ask` child's, under its own
 * lease) is not under it. The scope also carries the signal the gate aborts
 * when a renewal finds the lease taken over (`leaseSignalOf`), which the
 * loop adds to the step's own.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

interface LeaseScope {
  readonly sid: string;
  readonly holder: string;
  readonly signal: AbortSignal | undefined;
  /** Resolves once the lease is known held now (renewing it when it was not confirmed lately); rejects when it is lost. */
  readonly confirm: (() => Promise<void>) | undefined;
  /** Set when the step's work has settled: code that outlives it (a timer it started) still carries the scope. */
  ended: boolean;
}

const scope = new AsyncLocalStorage<LeaseScope>();

/**
 * Runs `work` as `holder`'s step of session `sid`: the store writes of `sid` it makes are fenced by that lease.
 * `signal`, when given, is what the step should stop on once the lease is lost; `confirm`, how the step's tool
 * writes make sure the lease is still held before they act (`leaseConfirmOf`).
 */
export async function runUnderLease<T>(sid: string, holder: string, work: () => Promise<T>, signal?: AbortSignal, confirm?: () => Promise<void>): Promise<T> {
  const current: LeaseScope = { sid, holder, signal, confirm, ended: false };
  try {
    return await scope.run(current, work);
  } finally {
    current.ended = true;
  }
}

/**
 * The lease the current code writes session `sid` under, if it runs inside (or outlived) that session's step. The
 * same object for every write of one step, so a store can tell which steps it fenced.
 */
export function leaseOf(sid: string): { readonly holder: string; readonly ended: boolean } | undefined {
  const current = scope.getStore();
  return current?.sid === sid ? current : undefined;
}

/** The scope of the step of session `sid` the current code runs in, while that step runs. */
function runningStep(sid: string): LeaseScope | undefined {
  const current = scope.getStore();
  return current?.sid === sid && !current.ended ? current : undefined;
}

/** The holder whose lease the current code writes session `sid` under, if it runs inside that session's step. */
export function leaseHolderOf(sid: string): string | undefined {
  return runningStep(sid)?.holder;
}

/** The signal that aborts when the lease of the current step of session `sid` is lost, while that step runs. */
export function leaseSignalOf(sid: string): AbortSignal | undefined {
  return runningStep(sid)?.signal;
}

/**
 * What the current step of session `sid` calls before a tool's write acts, while that step runs: it resolves at once
 * while the lease was confirmed lately, else renews it first, and rejects (`LOOP_LEASE_LOST`) when another host took
 * it over. A host that stalled past its lease (its renewals held back) so cannot act on a write once another host may
 * own the session, however long the stall; its store writes were fenced already, its tools' were not.
 */
export function leaseConfirmOf(sid: string): (() => Promise<void>) | undefined {
  return runningStep(sid)?.confirm;
}
