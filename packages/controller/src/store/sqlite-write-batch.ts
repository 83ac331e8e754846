/**
 * Group commit for the SQLite transcript store. Writes are queued and
 * committed together, each inside its own savepoint: a write that fails is
 * rolled back alone and rejects alone, as if it had had a transaction of its
 * own. A write's promise resolves only once the transaction holding it
 * committed, so what a caller awaited is on disk as before. Reads commit the
 * queued writes first, so a read sees every write asked for before it,
 * awaited or not.
 *
 * When the queue is committed depends on how busy the host is:
 * - With headroom, in a microtask queued by the first write of the batch:
 *   after the job that asked for it and the continuations already waiting
 *   (the writes they make join it; a write after a later `await` goes into
 *   the next batch), and no write waits for other callbacks of the round.
 *   At most {@link MAX_JOB_COMMITS_PER_TURN} such commits run before the event
 *   loop gets a turn: a chain of awaited writes would otherwise go on in
 *   microtasks and hold back timers and I/O until the busy test noticed.
 * - When the event loop is saturated (its utilisation at or above
 *   {@link BUSY_UTILIZATION} over the last sampling window, sampled at most
 *   every 25 ms when a write asks), or had that many job commits since its last
 *   turn, at the end of the event loop's round (`setImmediate`): the writes of
 *   every callback of the round (replies of many sessions arriving together)
 *   share one transaction, and the commits and the pages every write touches
 *   (the turns table's last page and its index) are paid once per round
 *   instead of once per job.
 * Waiting for the round's end costs each awaited write the rest of the round.
 * Measured on the shared 2-core machine, against committing every round at
 * its end: at 50 sessions a turn's five awaited writes took 0.9 ms instead of
 * 2.0 ms (the medians of their stages; 0.6 ms committing every job at its
 * end, before the cap of job commits per turn); committing every job costs
 * 60–110 µs more SQLite time per turn (4.7 commits a turn instead of 1.8 at
 * 1,000 sessions), which a saturated host cannot spare, so it keeps the
 * round's commit (1.8–2.1 commits a turn).
 */
import type { DatabaseSync } from 'node:sqlite';
import { immediateTransaction } from '@askloop/tools';

/** The queued writes of one store connection. */
export interface WriteBatch {
  /**
   * Queues `body` (the statements of one write, run synchronously inside the
   * transaction of its batch); resolves with its value once that transaction
   * committed, or rejects with `fail(error)`.
   */
  write<T>(body: () => T, fail: (error: unknown) => Error): Promise<T>;
  /** Commits the queued writes now (before a read or a close). */
  flush(): void;
}

interface QueuedWrite {
  readonly body: () => unknown;
  readonly fail: (error: unknown) => Error;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
}

type Outcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: unknown };

const SAVEPOINT = 'askloop_write';

/**
 * Writes one transaction takes at most. Beyond it the queue is committed at
 * once: thousands of sessions starting together would otherwise all wait for
 * one round's end and go on in lockstep, and at 10,000 sessions that held
 * about 60 MiB more at the peak. 16 to 64 measure alike.
 */
export const MAX_WRITES_PER_COMMIT = 32;

/** Event-loop utilisation (0–1) at or above which writes wait for the end of the round to commit together. */
export const BUSY_UTILIZATION = 0.85;

/** How long one utilisation sample spans: the busy test is redone at most this often. */
const SAMPLE_MS = 25;

/**
 * Commits at the end of a job the event loop runs before it gets a turn of its own (its check phase); past them, the
 * queue waits for the round's end. Bounds how long a chain of awaited writes can hold the loop in microtasks.
 */
export const MAX_JOB_COMMITS_PER_TURN = 8;

/** Options of {@link createWriteBatch}. */
export interface WriteBatchOptions {
  /** The most writes one transaction takes; a fuller queue is committed at once. Default {@link MAX_WRITES_PER_COMMIT}. */
  readonly maxWrites?: number;
  /**
   * Whether the host is busy enough for writes to wait for the end of the event loop's round. Default: the event
   * loop's utilisation over the last sampling window is at least {@link BUSY_UTILIZATION}. Tests pass a constant.
   */
  readonly busy?: () => boolean;
}

/**
 * True while this thread's event loop was at least `threshold` busy over the last window of {@link SAMPLE_MS} (or
 * more, when nothing asked in between: a long quiet stretch reads as idle).
 */
export function eventLoopBusy(threshold: number = BUSY_UTILIZATION): () => boolean {
  let last = performance.eventLoopUtilization();
  let sampledAt = performance.now();
  let busy = false;
  return () => {
    const now = performance.now();
    if (now - sampledAt >= SAMPLE_MS) {
      const current = performance.eventLoopUtilization();
      busy = performance.eventLoopUtilization(current, last).utilization >= threshold;
      last = current;
      sampledAt = now;
    }
    return busy;
  };
}

/** A write batch on `db`: committed at the end of the asking job, or of the round while the host is busy. */
export function createWriteBatch(db: DatabaseSync, options: WriteBatchOptions = {}): WriteBatch {
  const maxWrites = options.maxWrites ?? MAX_WRITES_PER_COMMIT;
  const busy = options.busy ?? eventLoopBusy();
  let queue: QueuedWrite[] = [];
  /** The round's-end commit, when the queue waits for one. */
  let scheduled: NodeJS.Immediate | undefined;
  /** Whether a job's-end commit is queued (a microtask cannot be cancelled: one that finds the queue empty does nothing). */
  let atJobEnd = false;
  /** Job's-end commits since the event loop's last check phase (reset there by `turnTaken`). */
  let jobCommits = 0;
  let turnTaken: NodeJS.Immediate | undefined;

  const settle = (writes: readonly QueuedWrite[], outcomes: readonly Outcome[]): void => {
    writes.forEach((write, index) => {
      const outcome = outcomes[index] as Outcome;
      if (outcome.ok) write.resolve(outcome.value);
      else {
        // A failing `fail` must not leave this write, or the ones after it, waiting for ever.
        let error: Error;
        try {
          error = write.fail(outcome.error);
        } catch (failed) {
          error = failed instanceof Error ? failed : new Error(String(failed));
        }
        write.reject(error);
      }
    });
  };
  const failAll = (writes: readonly QueuedWrite[], error: unknown): void => settle(writes, writes.map(() => ({ ok: false, error })));

  /** Runs each write in its own savepoint of one transaction; the outcomes, or throws when the transaction broke. */
  const runTogether = (writes: readonly QueuedWrite[]): Outcome[] =>
    immediateTransaction(db, () =>
      writes.map((write): Outcome => {
        db.exec(`SAVEPOINT ${SAVEPOINT}`);
        try {
          const value = write.body();
          db.exec(`RELEASE ${SAVEPOINT}`);
          return { ok: true, value };
        } catch (error) {
          // A failure that ended the whole transaction (a full disk, say) fails every write of the batch with its own
          // message: none of them committed. Any other failure undoes this write only.
          if (!db.isTransaction) throw error;
          db.exec(`ROLLBACK TO ${SAVEPOINT}`);
          db.exec(`RELEASE ${SAVEPOINT}`);
          return { ok: false, error };
        }
      }),
    );

  const flush = (): void => {
    if (scheduled !== undefined) clearImmediate(scheduled);
    scheduled = undefined;
    const writes = queue;
    if (writes.length === 0) return;
    queue = [];
    let outcomes: Outcome[];
    try {
      // A write alone in its batch gets its own transaction, with no savepoint to pay for.
      outcomes = writes.length === 1 ? [{ ok: true, value: immediateTransaction(db, (writes[0] as QueuedWrite).body) }] : runTogether(writes);
    } catch (error) {
      failAll(writes, error);
      return;
    }
    settle(writes, outcomes);
  };

  const flushAtJobEnd = (): void => {
    atJobEnd = false;
    // A busy spell that began since: leave the queue to the round's end (scheduled by the write that saw it).
    if (scheduled !== undefined || queue.length === 0) return;
    jobCommits += 1;
    turnTaken ??= setImmediate(() => {
      jobCommits = 0;
      turnTaken = undefined;
    });
    flush();
  };

  return {
    write: <T>(body: () => T, fail: (error: unknown) => Error): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        queue.push({ body, fail, resolve: resolve as (value: unknown) => void, reject });
        if (queue.length >= maxWrites) flush();
        else if (scheduled !== undefined) return; // the round's end commits it
        else if (jobCommits >= MAX_JOB_COMMITS_PER_TURN || busy()) scheduled = setImmediate(flush);
        else if (!atJobEnd) {
          atJobEnd = true;
          queueMicrotask(flushAtJobEnd);
        }
      }),
    flush,
  };
}
