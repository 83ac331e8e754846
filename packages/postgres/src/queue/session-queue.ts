/**
 * The work queue of sessions, in the same database as their transcript:
 * one row per queued session, taken with `FOR UPDATE SKIP LOCKED` (hosts
 * never wait for each other's rows) as a **lease** with an expiry and a
 * **fencing token** from a sequence. A host renews its lease while its turn
 * runs; the turn commits only if the token is still the session's and the
 * lease has not expired (checked under the row's lock in the committing
 * transaction, see lease-bound-stores.ts). A lease that expires — its host
 * died or stalled — is taken by the next host that asks, in queue order.
 * Queue order is `ready_at`: a session goes to the back after each step, so
 * sessions share the hosts turn by turn.
 */
import { LoopError, requireSessionId, sessionEnd } from '@askloop/controller';
import type pg from 'pg';
import { PostgresStoreError } from '../errors/postgres-store-error.ts';
import { queryFailure, type Queryable } from '../sql/statement-runner.ts';
import { createPostgresTranscriptStore } from '../transcript/postgres-transcript-store.ts';

/** A host's exclusive right to run the next step of one session, until `expiresAt`. */
export interface Lease {
  readonly sid: string;
  /** The fencing token: increases with every lease taken; a commit needs the session's current one. */
  readonly token: string;
  readonly owner: string;
  readonly leasedAt: Date;
  readonly expiresAt: Date;
}

/** Where a queued session stands. */
export type QueueState = 'ready' | 'leased' | 'paused' | 'finished' | 'failed';

/** One row of the queue. */
export interface QueueEntry {
  readonly sid: string;
  readonly state: QueueState;
  readonly leases: number;
  readonly steps: number;
  readonly failures: number;
  /** Steps in a row PostgreSQL failed to break a conflict (retried at once; see {@link SessionQueue.retry}). */
  readonly conflicts: number;
  readonly lastError: string | null;
}

/** Options of {@link createSessionQueue}. */
export interface SessionQueueOptions {
  /** How long a lease lasts without renewal, in ms. Default 30 000; a worker renews every third of it. */
  readonly leaseMs?: number;
  /** Failed steps (the step threw, other than a lost lease) before the session is parked as `failed`. Default 3. */
  readonly maxFailures?: number;
  /** How long a session whose step failed waits before it is offered again, in ms. Default 1000. */
  readonly retryDelayMs?: number;
  /**
   * Conflicts in a row (steps PostgreSQL failed to break a deadlock or a serialization conflict, each retried at
   * once without counting as a failure) of which the last counts as a failed step: the `maxConflicts`-th in a row
   * is one. Default 10.
   */
  readonly maxConflicts?: number;
  /**
   * Applied to a failed step's message before it is stored as `lastError`
   * (then cut to 2,000 characters): a plugin's hook or a server may quote a
   * key in its error, which the store would otherwise keep. Default: none.
   */
  readonly redact?: (text: string) => string;
}

/** What {@link SessionQueue.retry} did: offered the session again at once, counted the conflict as a failure (`fail`'s delay, or parked), or nothing (the lease was no longer held). */
export type RetryOutcome = 'retried' | 'counted' | 'lost';

/** The queue's operations. */
export interface SessionQueue {
  readonly leaseMs: number;
  /** Queues a session (again, when it was paused, finished or failed). Throws `PG_SESSION_NOT_FOUND`, `PG_SESSION_ENDED` for a session that is done or halted, or `LOOP_ARGUMENT_INVALID` for an id no store holds. */
  enqueue(sid: string): Promise<void>;
  /**
   * Leases the runnable session that has waited longest (or whose lease expired), or undefined when none is;
   * never one of `options.exclude` (sessions this host found it cannot serve, see {@link SessionQueue.release}).
   */
  acquire(owner: string, options?: { readonly exclude?: readonly string[] }): Promise<Lease | undefined>;
  /** Extends a live lease; undefined when it is lost (expired, or another host holds the session now). */
  renew(lease: Lease): Promise<Lease | undefined>;
  /** Gives a lease back after a failed step: the session is offered again later, or parked `failed` after `maxFailures`. */
  fail(lease: Lease, error: unknown): Promise<void>;
  /**
   * Optional (a queue without it has such steps `fail`): gives a lease back after a step PostgreSQL failed to break
   * a conflict with another transaction (a deadlock, a serialization failure; see `isTransactionConflict`). The
   * session is offered again at once and the conflict is not counted as a failure (its message is kept as
   * `lastError`): `retried`; the `maxConflicts`-th in a row counts as `fail` would: `counted`. `lost` when the
   * lease was no longer this host's (expired and taken, or already given back): nothing changed.
   */
  retry?(lease: Lease, error: unknown): Promise<RetryOutcome>;
  /**
   * Optional (a queue without it has such steps `fail`): gives a lease back after a step this host could not take
   * (it lacks the session's tools or provider: `LOOP_TOOLS_MISSING`, `LOOP_PROVIDER_NOT_FOUND`). The session is
   * ready again at once for another host, no failure is counted, and `error`'s message is kept as `lastError`; the
   * host should leave it out of its next requests (`acquire`'s `exclude`). False when the lease was no longer this
   * host's.
   */
  release?(lease: Lease, error: unknown): Promise<boolean>;
  /** The queue row of a session. */
  entry(sid: string): Promise<QueueEntry | undefined>;
  /** The queue rows of `sids` that have one, by session id (one query; a session never queued has none). */
  entries(sids: readonly string[]): Promise<ReadonlyMap<string, QueueEntry>>;
  /** How many sessions are in each state. */
  counts(): Promise<Record<QueueState, number>>;
}

type LeaseRow = { sid: string; lease_token: string; lease_owner: string; leased_at: Date; lease_expires_at: Date };

const toLease = (row: LeaseRow): Lease => ({ sid: row.sid, token: String(row.lease_token), owner: row.lease_owner, leasedAt: row.leased_at, expiresAt: row.lease_expires_at });

/** The state a session's queue row takes after a committed step, from the step's loop status. */
export function queueStateAfter(status: 'DONE' | 'HALT' | 'PAUSED' | 'RUNNING'): QueueState {
  return status === 'RUNNING' ? 'ready' : status === 'PAUSED' ? 'paused' : 'finished';
}

/** `PG_LEASE_LOST`: the step under `lease` cannot commit, and `why`. */
export function leaseLost(lease: Lease, why: string): PostgresStoreError {
  return new PostgresStoreError('PG_LEASE_LOST', `lease ${lease.token} on session ${lease.sid} is lost (${why}); the step is not committed`, { sid: lease.sid });
}

/**
 * Inside the committing transaction: locks the session's queue row, checks
 * that `lease` is still the live lease (else throws `PG_LEASE_LOST`; the
 * caller rolls back), moves the row to its next state and logs the step.
 */
export async function finishLeasedStep(query: Queryable, lease: Lease, outcome: { readonly status: 'DONE' | 'HALT' | 'PAUSED' | 'RUNNING'; readonly turns: number; readonly decided: boolean }): Promise<void> {
  const current = (
    await query.query<{ lease_token: string | null; state: string; live: boolean }>(
      'SELECT lease_token, state, lease_expires_at > clock_timestamp() AS live FROM askloop_queue WHERE sid = $1 FOR UPDATE',
      [lease.sid],
    )
  ).rows[0];
  if (current === undefined || current.state !== 'leased' || String(current.lease_token) !== lease.token || !current.live) {
    const why = current === undefined ? 'the session left the queue' : String(current.lease_token) !== lease.token ? 'another host holds it now' : 'it expired';
    throw leaseLost(lease, why);
  }
  // A step that decided no turn (a session queued again after it ended: the loop only reports its end) is not a
  // step of the session's log: the log keeps one row per decision that moved it on, as an audit reads it — a turn
  // resume ran again after a HALT, even one that halts again at the same count, is a row of its own.
  await query.query(
    `WITH step AS (
       INSERT INTO askloop_steps (sid, turns, status, fence, host, leased_at, committed_at)
       SELECT $1, $2, $3, $4, $5, $6, clock_timestamp()
       WHERE $8::boolean
     )
     UPDATE askloop_queue SET state = $7, ready_at = clock_timestamp(), lease_owner = NULL, lease_token = NULL, leased_at = NULL, lease_expires_at = NULL,
       steps = steps + 1, failures = 0, conflicts = 0, last_error = NULL
     WHERE sid = $1`,
    [lease.sid, outcome.turns, outcome.status, lease.token, lease.owner, lease.leasedAt, queueStateAfter(outcome.status), outcome.decided],
  );
}

/** Queues `sid` on `pool` (see {@link SessionQueue.enqueue}). */
export async function enqueueSession(pool: pg.Pool, sid: string): Promise<void> {
  await createSessionQueue(pool).enqueue(sid);
}

/** `options[name]`, or `fallback`; refuses (`LOOP_ARGUMENT_INVALID`) anything but a whole number from `least` up. */
function wholeOption(options: SessionQueueOptions, name: 'leaseMs' | 'maxFailures' | 'retryDelayMs' | 'maxConflicts', fallback: number, least: number): number {
  const value = options[name] ?? fallback;
  // Unchecked, a fraction failed every give-back in SQL ("invalid input syntax for type integer") and left the session leased.
  if (!Number.isSafeInteger(value) || value < least) throw new LoopError({ code: 'LOOP_ARGUMENT_INVALID', message: `createSessionQueue: ${name} must be a whole number of at least ${least}, not ${String(value)}` });
  return value;
}

/** The queue over `pool` (apply `applyPostgresMigrations(pool)` first). Throws `LOOP_ARGUMENT_INVALID` for an option that is not a whole number in range. */
export function createSessionQueue(pool: pg.Pool, options: SessionQueueOptions = {}): SessionQueue {
  const leaseMs = wholeOption(options, 'leaseMs', 30_000, 1);
  const maxFailures = wholeOption(options, 'maxFailures', 3, 1);
  const retryDelayMs = wholeOption(options, 'retryDelayMs', 1000, 0);
  const maxConflicts = wholeOption(options, 'maxConflicts', 10, 1);
  const redact = options.redact ?? ((text: string) => text);
  if (typeof redact !== 'function') throw new LoopError({ code: 'LOOP_ARGUMENT_INVALID', message: `createSessionQueue: redact must be a function (text) => text, not ${typeof redact}` });
  // Read by enqueue only, to refuse a session that has ended.
  const transcript = createPostgresTranscriptStore(pool);
  /** The queue rows of `sids`, by session id. */
  const selectEntries = async (sids: readonly string[]): Promise<Map<string, QueueEntry>> => {
    const entries = new Map<string, QueueEntry>();
    if (sids.length === 0) return entries;
    const { rows } = await pool.query<{ sid: string; state: QueueState; leases: number; steps: number; failures: number; conflicts: number; last_error: string | null }>(
      'SELECT sid, state, leases, steps, failures, conflicts, last_error FROM askloop_queue WHERE sid = ANY($1::text[])',
      [sids],
    );
    for (const row of rows) entries.set(row.sid, { sid: row.sid, state: row.state, leases: row.leases, steps: row.steps, failures: row.failures, conflicts: row.conflicts, lastError: row.last_error });
    return entries;
  };
  const guard = async <T>(action: string, body: () => Promise<T>, sid?: string): Promise<T> => {
    try {
      return await body();
    } catch (error) {
      throw queryFailure(`queue ${action}`, error, sid);
    }
  };
  /**
   * Ends `lease` (held, not yet taken over) with `error`'s message kept, setting `changes` (`$4`… are `values`);
   * the row as it is now (its `conflicts`), or undefined when the lease was no longer this host's and nothing changed.
   */
  const giveBack = (action: string, lease: Lease, error: unknown, changes: string, values: readonly unknown[]): Promise<{ conflicts: number } | undefined> =>
    guard(
      action,
      async () => {
        // Redacted before the cut: cut first, a key at the cut would keep its start.
        const message = redact(error instanceof Error ? error.message : String(error));
        const result = await pool.query<{ conflicts: number }>(
          `UPDATE askloop_queue SET ${changes}, last_error = $3, lease_owner = NULL, lease_token = NULL, leased_at = NULL, lease_expires_at = NULL
           WHERE sid = $1 AND lease_token = $2 AND state = 'leased'
           RETURNING conflicts`,
          [lease.sid, lease.token, message.slice(0, 2000), ...values],
        );
        return result.rows[0];
      },
      lease.sid,
    );
  // The parameters after giveBack's three: $4 maxFailures, $5 retryDelayMs, $6 maxConflicts (retry only).
  /** One failure more parks the session. */
  const PARKS = 'failures + 1 >= $4';
  /** When a failed step is offered again. */
  const AFTER_DELAY = 'clock_timestamp() + make_interval(secs => $5::double precision / 1000)';
  /** What `fail` sets: one failure more, ending a run of conflicts. */
  const FAILED = `failures = failures + 1, conflicts = 0, state = CASE WHEN ${PARKS} THEN 'failed' ELSE 'ready' END, ready_at = ${AFTER_DELAY}`;
  /** This conflict is the `maxConflicts`-th in a row: `retry` counts it as `fail` would. */
  const COUNTED = 'conflicts + 1 >= $6';
  return {
    leaseMs,
    enqueue: async (sid) => {
      // As the transcript store does: an id no store holds (U+0000 would fail PostgreSQL's text) is the caller's error.
      requireSessionId(sid, 'enqueue');
      await guard(
        'enqueue',
        async () => {
          // A worker's step of an ended session would do nothing and log nothing: refuse it here, by the rule resume uses.
          const end = await sessionEnd(transcript, sid);
          if (end !== undefined) {
            const how = end.decision.kind === 'DONE' ? 'DONE' : `HALT ${end.decision.reason}`;
            throw new PostgresStoreError('PG_SESSION_ENDED', `session ${sid} has ended (${how} after ${end.turns} turn${end.turns === 1 ? '' : 's'}); a worker has nothing to run for it. Start a new session for the task (loop.create)`, { sid });
          }
          const result = await pool.query(
            `INSERT INTO askloop_queue (sid, state, ready_at) SELECT $1, 'ready', clock_timestamp() WHERE EXISTS (SELECT 1 FROM askloop_sessions WHERE sid = $1)
             ON CONFLICT (sid) DO UPDATE SET state = 'ready', ready_at = clock_timestamp(), failures = 0, conflicts = 0, last_error = NULL
             WHERE askloop_queue.state IN ('paused', 'finished', 'failed')
             RETURNING sid`,
            [sid],
          );
          if (result.rows.length === 1) return;
          // Nothing inserted or changed: already queued (fine), or no such session.
          const queued = await pool.query('SELECT 1 FROM askloop_queue WHERE sid = $1', [sid]);
          if (queued.rows.length === 0) throw new PostgresStoreError('PG_SESSION_NOT_FOUND', `no session ${sid} in the transcript; create it before queueing it`, { sid });
        },
        sid,
      );
    },
    acquire: (owner, options = {}) =>
      guard('acquire', async () => {
        const exclude = options.exclude ?? [];
        const result = await pool.query<LeaseRow>(
          `WITH next AS (
             SELECT sid FROM askloop_queue
             WHERE ((state = 'ready' AND ready_at <= clock_timestamp()) OR (state = 'leased' AND lease_expires_at <= clock_timestamp()))
               AND sid <> ALL($3::text[])
             ORDER BY ready_at
             LIMIT 1
             FOR UPDATE SKIP LOCKED
           )
           UPDATE askloop_queue q SET state = 'leased', lease_owner = $1, lease_token = nextval('askloop_fence'), leased_at = clock_timestamp(),
             lease_expires_at = clock_timestamp() + make_interval(secs => $2::double precision / 1000), leases = leases + 1
           FROM next WHERE q.sid = next.sid
           RETURNING q.sid, q.lease_token, q.lease_owner, q.leased_at, q.lease_expires_at`,
          [owner, leaseMs, [...exclude]],
        );
        const row = result.rows[0];
        return row === undefined ? undefined : toLease(row);
      }),
    renew: (lease) =>
      guard(
        'renew',
        async () => {
          const result = await pool.query<LeaseRow>(
            `UPDATE askloop_queue SET lease_expires_at = clock_timestamp() + make_interval(secs => $3::double precision / 1000)
             WHERE sid = $1 AND lease_token = $2 AND state = 'leased' AND lease_expires_at > clock_timestamp()
             RETURNING sid, lease_token, lease_owner, leased_at, lease_expires_at`,
            [lease.sid, lease.token, leaseMs],
          );
          const row = result.rows[0];
          return row === undefined ? undefined : toLease(row);
        },
        lease.sid,
      ),
    fail: async (lease, error) => {
      await giveBack('fail', lease, error, FAILED, [maxFailures, retryDelayMs]);
    },
    // Not counted: the failed transaction kept nothing, and run again it succeeds once the other has finished. Only a
    // run of them as long as `maxConflicts` (a session that never wins) counts: its last, as a failure.
    retry: async (lease, error) => {
      const row = await giveBack('retry', lease, error, `conflicts = CASE WHEN ${COUNTED} THEN 0 ELSE conflicts + 1 END,
         failures = CASE WHEN ${COUNTED} THEN failures + 1 ELSE failures END,
         state = CASE WHEN ${COUNTED} AND ${PARKS} THEN 'failed' ELSE 'ready' END,
         ready_at = CASE WHEN ${COUNTED} THEN ${AFTER_DELAY} ELSE clock_timestamp() END`, [maxFailures, retryDelayMs, maxConflicts]);
      // A conflict not counted leaves at least one in the row; the counted one starts the count again.
      return row === undefined ? 'lost' : row.conflicts > 0 ? 'retried' : 'counted';
    },
    // Not counted: the session is not at fault, this host lacks what it needs; another host may have it.
    release: async (lease, error) => (await giveBack('release', lease, error, "state = 'ready', ready_at = clock_timestamp()", [])) !== undefined,
    entry: async (sid) => {
      requireSessionId(sid, 'entry');
      return guard('entry', async () => (await selectEntries([sid])).get(sid), sid);
    },
    entries: async (sids) => {
      for (const sid of sids) requireSessionId(sid, 'entries');
      return guard('entries', () => selectEntries(sids));
    },
    counts: () =>
      guard('counts', async () => {
        const counts: Record<QueueState, number> = { ready: 0, leased: 0, paused: 0, finished: 0, failed: 0 };
        for (const row of (await pool.query<{ state: QueueState; n: string }>('SELECT state, count(*) AS n FROM askloop_queue GROUP BY state')).rows) counts[row.state] = Number(row.n);
        return counts;
      }),
  };
}
