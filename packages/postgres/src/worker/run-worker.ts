/**
 * A host's loop: lease the runnable session that waited longest, run
 * exactly one `loop.step(sid)` with the stores bound to that lease, commit,
 * and go again — until `signal` aborts (the step in flight finishes first).
 * While a step runs its lease is renewed every third of its length; a
 * renewal that finds the lease gone aborts the step, and its commit is
 * refused (`PG_LEASE_LOST`), so a stalled host never overwrites the host
 * that took over. A step PostgreSQL failed to break a conflict with another
 * transaction (a deadlock, a serialization failure) — in the error it threw,
 * or in any statement of its transaction, a tool's write whose error the
 * program handled included — is rolled back and offered again at once, not
 * counted as a failure (`queue.retry`; the `maxConflicts`-th in a row counts
 * as one): the database keeps nothing of it, and run again it succeeds. As
 * any step run again, it repeats what it did outside the database (an HTTP
 * call, an `ask`'s child session). A failure a savepoint was rolled back to
 * (a scratch entry's write) is the tool's error only: the program saw it and
 * the step commits. A step that throws for another reason is rolled back and
 * given back to the queue (offered again later; parked `failed` after
 * `maxFailures`).
 */
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { AskLoop, TurnFailure } from '@askloop/controller';
import { isLeaseLost, isTransactionConflict } from '../errors/postgres-store-error.ts';
import type { Lease, SessionQueue } from '../queue/session-queue.ts';
import { queryFailure } from '../sql/statement-runner.ts';
import type { LeaseBoundStores } from './lease-bound-stores.ts';

/** What one step of a worker ended with. */
export interface WorkerStepEvent {
  readonly sid: string;
  readonly token: string;
  /**
   * `conflict`: PostgreSQL failed the step to break a deadlock or a serialization conflict; the session is offered
   * again at once. `skipped`: this host lacks what the session needs (`LOOP_TOOLS_MISSING`, `LOOP_PROVIDER_NOT_FOUND`):
   * the session is left to another host at once, no failure counted, and this host leaves it alone for a minute.
   */
  readonly outcome: 'committed' | 'lease-lost' | 'conflict' | 'skipped' | 'failed';
  readonly status?: 'DONE' | 'HALT' | 'PAUSED' | 'RUNNING';
  /** Why a committed step halted or paused (`ERR_PROVIDER`, `AWAITING_APPROVAL`, …); null when it did neither. */
  readonly reason?: string | null;
  /** What a committed step's HALT or PAUSE decision says (`LoopResult.message`: a ceiling's figures, the tools awaiting approval); null otherwise. */
  readonly message?: string | null;
  readonly turns?: number;
  /**
   * Of a committed step: whether it decided (or paused) a turn. False for a session that had ended before the step
   * (another host finished it meanwhile): the loop only reported its end, no turn ran, and the step log has no row.
   */
  readonly decided?: boolean;
  /**
   * What failed in the last turn of a committed step that halted or paused on a failure (`LoopResult.failure`), with
   * the grant that would lift a denial (`grant`, for a host to tell its operator).
   */
  readonly failure?: { readonly code: string; readonly kind: string; readonly message: string; readonly grant?: TurnFailure['grant'] } | null;
  readonly error?: unknown;
}

/** Options of {@link runWorker}. */
export interface RunWorkerOptions {
  /** The loop, created with `createAskLoop({ store: stores.transcript, toolStores: stores.toolStores, … })`. */
  readonly loop: Pick<AskLoop, 'step'>;
  readonly stores: LeaseBoundStores;
  readonly queue: SessionQueue;
  /** Stops the worker after the step in flight. */
  readonly signal?: AbortSignal;
  /** This host's name in the queue; default `<hostname>:<pid>:<random>`. */
  readonly owner?: string;
  /** How long to wait before asking again when no session is runnable, in ms. Default 100. */
  readonly idleMs?: number;
  /** Called after every step. */
  readonly onStep?: (event: WorkerStepEvent) => void;
  /**
   * Called when asking the queue for work failed (the database unreachable); the worker waits `retry.waitMs` and
   * asks again: a second after the first failure, twice as long after each further one in a row, at most 30 s.
   */
  readonly onError?: (error: unknown, retry: { readonly failures: number; readonly waitMs: number }) => void;
}

/** Counters of one worker run. */
export interface WorkerStats {
  /** Steps committed that decided (or paused) a turn. */
  committed: number;
  /** Steps committed that found their session ended already (another host finished it): no turn ran. */
  ended: number;
  leaseLost: number;
  /** Steps PostgreSQL failed to break a conflict with another transaction (offered again at once). */
  conflicts: number;
  /** Steps of sessions this host lacks the tools or provider for (left to another host, not counted as failures). */
  skipped: number;
  failed: number;
}

/**
 * How far past its lease's expiry a failed step is taken for a lost lease. The expiry is measured on this host's
 * monotonic clock, from when the queue last answered for the lease (acquired or renewed), not read off the database's
 * timestamp: a host whose clock ran ahead of the database's by more than a lease took every failed step for a lost
 * lease (never counted toward parking its session, never given back to a host that has the tools it lacks).
 */
const EXPIRY_MARGIN_MS = 1000;

/** How long a host leaves alone a session it found it cannot serve (its tools or provider missing here). */
const CANNOT_SERVE_MS = 60_000;

/**
 * The codes of a step that failed because this host lacks what the session needs, not because of the session: its
 * tools, its provider, or a provider that cannot be made here (`PROVIDER_CONFIG`, the cause of the controller's
 * `LOOP_PLUGIN_INVALID` for a malformed or misconfigured provider, such as a key it checks at once).
 */
const HOST_LACKS: ReadonlySet<string> = new Set(['LOOP_TOOLS_MISSING', 'LOOP_PROVIDER_NOT_FOUND', 'PROVIDER_CONFIG']);

/** Whether `error` (or one in its `cause` chain) says this host lacks the session's tools or provider. */
function hostLacks(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 10 && typeof current === 'object' && current !== null; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && HOST_LACKS.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The longest wait between two requests for work while the database cannot be reached. */
const MAX_UNREACHABLE_WAIT_MS = 30_000;

const sleep = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
  new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/** Runs steps until `signal` aborts; resolves with the counters. */
export async function runWorker(options: RunWorkerOptions): Promise<WorkerStats> {
  const { loop, stores, queue, signal } = options;
  const owner = options.owner ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const idleMs = options.idleMs ?? 100;
  const stats: WorkerStats = { committed: 0, ended: 0, leaseLost: 0, conflicts: 0, skipped: 0, failed: 0 };
  let unreachable = 0;
  /** Sessions this host found it cannot serve, with when it may look at them again. */
  const cannotServe = new Map<string, number>();
  while (signal?.aborted !== true) {
    let lease: Lease | undefined;
    const now = Date.now();
    for (const [sid, until] of cannotServe) if (until <= now) cannotServe.delete(sid);
    let answeredAt = 0;
    try {
      lease = await queue.acquire(owner, cannotServe.size === 0 ? {} : { exclude: [...cannotServe.keys()] });
      answeredAt = performance.now();
      unreachable = 0;
    } catch (error) {
      // A database that is away for a while must not end the host: wait and ask again, backing off (a restart is
      // over in seconds; a long outage should not be a line a second in every worker's log).
      unreachable += 1;
      const waitMs = Math.min(MAX_UNREACHABLE_WAIT_MS, 1000 * 2 ** Math.min(unreachable - 1, 16));
      options.onError?.(error, { failures: unreachable, waitMs });
      await sleep(waitMs, signal);
      continue;
    }
    if (lease === undefined) {
      await sleep(idleMs, signal);
      continue;
    }
    const event = await runStep(loop, stores, queue, lease, answeredAt);
    if (event.outcome === 'committed') stats[event.decided === false ? 'ended' : 'committed'] += 1;
    else if (event.outcome === 'lease-lost') stats.leaseLost += 1;
    else if (event.outcome === 'conflict') stats.conflicts += 1;
    else if (event.outcome === 'skipped') {
      stats.skipped += 1;
      cannotServe.set(event.sid, Date.now() + CANNOT_SERVE_MS);
    } else stats.failed += 1;
    options.onStep?.(event);
  }
  return stats;
}

/**
 * One leased step: run, renew meanwhile, commit or roll back. `answeredAt`: when the queue's answer granting `lease`
 * came (`performance.now()`); the database set its expiry before that, so it runs out by `queue.leaseMs` after.
 */
async function runStep(loop: Pick<AskLoop, 'step'>, stores: LeaseBoundStores, queue: SessionQueue, lease: Lease, answeredAt: number): Promise<WorkerStepEvent> {
  const binding = stores.bind(lease);
  let current = lease;
  let confirmedAt = answeredAt;
  const renewal = setInterval(() => {
    // Before the renewal: the transaction's idle time never runs past the lease's new expiry.
    binding.keepAlive();
    void queue.renew(current).then(
      (renewed) => {
        if (renewed === undefined) binding.markLost('not renewable: expired or taken over');
        else {
          current = renewed;
          confirmedAt = Math.max(confirmedAt, performance.now());
        }
      },
      // A failed renewal (the database unreachable) is not yet a lost lease: the commit checks it anyway.
      () => undefined,
    );
  }, Math.max(10, Math.floor(queue.leaseMs / 3)));
  const base = { sid: lease.sid, token: lease.token };
  try {
    // As the binding's work: a tool call that outlives the step is refused, not written into the next step.
    const result = await binding.run(() => loop.step(lease.sid, { signal: binding.signal }));
    clearInterval(renewal);
    // A conflict the step went on after (a tool's failed write, handled by the program) still broke its transaction.
    if (binding.conflict !== undefined) throw queryFailure("a statement of the step's transaction", binding.conflict, lease.sid);
    await binding.commit({ status: result.status, turns: result.turns });
    return { ...base, outcome: 'committed', status: result.status, reason: result.reason, message: result.message ?? null, turns: result.turns, failure: result.failure ?? null, decided: binding.decided };
  } catch (error) {
    clearInterval(renewal);
    await binding.rollback();
    // A host that stalled past its lease (a frozen process) finds its connection ended by the server; by when the
    // error comes the lease is gone too, whatever the error says ("Connection terminated unexpectedly"): a lost lease,
    // not a failed step of the session. Measured on this host's monotonic clock (see EXPIRY_MARGIN_MS).
    const expired = performance.now() > confirmedAt + queue.leaseMs + EXPIRY_MARGIN_MS;
    if (binding.lost || isLeaseLost(error) || expired) return { ...base, outcome: 'lease-lost', error };
    if (queue.retry !== undefined && (binding.conflict !== undefined || isTransactionConflict(error))) {
      // Given back only while the lease is this host's: a stalled host that lost a deadlock has lost its lease too.
      // When the queue cannot be reached the lease runs out, as after a failed step's give-back.
      const retried = await queue.retry(lease, error).catch(() => 'counted' as const);
      return { ...base, outcome: retried === 'retried' ? 'conflict' : retried === 'lost' ? 'lease-lost' : 'failed', error };
    }
    // This host lacks what the session needs, another may not: left to them, not counted toward parking it.
    if (queue.release !== undefined && hostLacks(error)) {
      const released = await queue.release(lease, error).catch(() => false);
      if (released) return { ...base, outcome: 'skipped', error };
    }
    await queue.fail(lease, error).catch(() => undefined);
    return { ...base, outcome: 'failed', error };
  }
}
