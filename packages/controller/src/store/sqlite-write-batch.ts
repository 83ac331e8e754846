/**
 * Group commit for the SQLite transcript store. Writes asked for while the
 * event loop works through one round of callbacks (replies of many sessions
 * arriving together, their turns saved) are committed in one transaction at
 * the end of that round (`setImmediate`), each inside its own savepoint: a
 * write that fails is rolled back alone and rejects alone, as if it had had a
 * transaction of its own. A write's promise resolves only once the
 * transaction holding it committed, so what a caller awaited is on disk as
 * before; the commits (and the pages every write of a round touches, such as
 * the turns table's last page and its index) are paid once per round instead
 * of once per write. Reads commit the queued writes first, so a read sees
 * every write asked for before it, awaited or not.
 */
import type { DatabaseSync } from 'node:sqlite';
import { immediateTransaction } from '@askloop/tools';

/** The queued writes of one store connection. */
export interface WriteBatch {
  /**
   * Queues `body` (the statements of one write, run synchronously inside the
   * round's transaction); resolves with its value once that transaction
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
 * Writes a round commits at most together. Beyond it the queue is committed at
 * once: thousands of sessions starting together would otherwise all wait for
 * one round's end and go on in lockstep, and at 10,000 sessions that held
 * about 60 MiB more at the peak. 16 to 64 measure alike.
 */
export const MAX_WRITES_PER_COMMIT = 32;

/** A write batch on `db`; a round's queue is committed at once when it reaches `maxWrites`. */
export function createWriteBatch(db: DatabaseSync, maxWrites: number = MAX_WRITES_PER_COMMIT): WriteBatch {
  let queue: QueuedWrite[] = [];
  let scheduled: NodeJS.Immediate | undefined;

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
          // A failure that ended the whole transaction (a full disk, say) fails every write of the round with its own
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
      // A write alone in its round gets its own transaction, with no savepoint to pay for.
      outcomes = writes.length === 1 ? [{ ok: true, value: immediateTransaction(db, (writes[0] as QueuedWrite).body) }] : runTogether(writes);
    } catch (error) {
      failAll(writes, error);
      return;
    }
    settle(writes, outcomes);
  };

  return {
    write: <T>(body: () => T, fail: (error: unknown) => Error): Promise<T> =>
      new Promise<T>((resolve, reject) => {
        queue.push({ body, fail, resolve: resolve as (value: unknown) => void, reject });
        if (queue.length >= maxWrites) flush();
        else scheduled ??= setImmediate(flush);
      }),
    flush,
  };
}
