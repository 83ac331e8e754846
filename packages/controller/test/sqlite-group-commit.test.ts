/**
 * The SQLite transcript store's group commit (`sqlite-write-batch.ts`): the
 * writes asked for together commit in one transaction, each in its own
 * savepoint — at the end of the job that asked for them, or of the event
 * loop's round while the host is busy; what a caller awaited is committed;
 * reads see every write asked for before them; a failing write rejects alone;
 * a batch that cannot commit rejects every write in it and keeps none.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteTranscriptStore, type SqliteTranscriptStore } from '../src/store/sqlite-transcript-store.ts';
import { createWriteBatch, eventLoopBusy, MAX_JOB_COMMITS_PER_TURN } from '../src/store/sqlite-write-batch.ts';
import { sampleSession, sampleTurn } from '../src/testing/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'askloop-group-commit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshFile = (): string => join(dir, `store-${++files}.db`);

/** Counts the transactions `store` (or a database) begins from now on. */
function countTransactions(store: SqliteTranscriptStore | DatabaseSync): { readonly begun: () => number } {
  const database = ('database' in store ? store.database : store) as DatabaseSync & { exec(sql: string): void };
  const exec = database.exec.bind(database);
  let begun = 0;
  database.exec = (sql: string) => {
    if (sql.startsWith('BEGIN')) begun += 1;
    return exec(sql);
  };
  return { begun: () => begun };
}

describe('SQLite transcript store: group commit', () => {
  it('commits the writes of one round in one transaction, each resolved only after it', async () => {
    const store = createSqliteTranscriptStore(freshFile());
    for (let index = 0; index < 20; index += 1) await store.createSession(sampleSession(`s-${index}`));
    const transactions = countTransactions(store);
    const saves = Array.from({ length: 20 }, (_, index) => store.saveTurn(sampleTurn(`s-${index}`, 1), sampleSession(`s-${index}`, { turns: 1 })));
    const leases = [store.acquireLease?.('s-0', 'host-a', 60_000), store.acquireLease?.('s-1', 'host-a', 60_000)];
    expect(transactions.begun()).toBe(0);
    await Promise.all(saves);
    expect(await Promise.all(leases)).toEqual([true, true]);
    expect(transactions.begun()).toBe(1);
    for (let index = 0; index < 20; index += 1) {
      expect(await store.listTurns(`s-${index}`)).toEqual([sampleTurn(`s-${index}`, 1)]);
      expect((await store.getSession(`s-${index}`))?.turns).toBe(1);
    }
    await store.close();
  });

  it('rejects a failing write alone: the writes beside it in the round are kept', async () => {
    const store = createSqliteTranscriptStore(freshFile());
    await store.createSession(sampleSession('kept-1'));
    await store.createSession(sampleSession('kept-2'));
    const outcomes = await Promise.allSettled([
      store.saveTurn(sampleTurn('kept-1', 1)),
      store.saveTurn(sampleTurn('missing', 1), sampleSession('missing')),
      store.createSession(sampleSession('kept-1')),
      store.saveTurn(sampleTurn('kept-2', 1)),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'LOOP_SESSION_NOT_FOUND', sid: 'missing' });
    expect((outcomes[2] as PromiseRejectedResult).reason).toMatchObject({ code: 'LOOP_STORE_ERROR', sid: 'kept-1' });
    expect(await store.listTurns('kept-1')).toEqual([sampleTurn('kept-1', 1)]);
    expect(await store.listTurns('kept-2')).toEqual([sampleTurn('kept-2', 1)]);
    expect(await store.getSession('missing')).toBeUndefined();
    await store.close();
  });

  it('applies writes in the order asked, and a read sees every write asked for before it, awaited or not', async () => {
    const store = createSqliteTranscriptStore(freshFile());
    await store.createSession(sampleSession('order'));
    const first = store.saveTurn(sampleTurn('order', 1, { phase: 'asking' }), sampleSession('order', { status: 'running', turns: 1 }));
    const second = store.updateSession(sampleSession('order', { status: 'done', turns: 1, lastDecision: { kind: 'DONE', result: 'ok' } }));
    const third = store.saveTurn(sampleTurn('order', 1, { phase: 'decided' }));
    // Asked for before the reads, not awaited: the reads commit them first.
    expect((await store.getSession('order'))?.status).toBe('done');
    expect(await store.lastTurn('order')).toEqual(sampleTurn('order', 1, { phase: 'decided' }));
    await Promise.all([first, second, third]);
    await store.close();
  });

  it('saves a record and a session as they were at the call, whatever the caller changes before the round commits', async () => {
    const store = createSqliteTranscriptStore(freshFile());
    await store.createSession(sampleSession('frozen'));
    const turn = { ...sampleTurn('frozen', 1, { phase: 'asking' }) } as unknown as { phase: string; emits: string[] };
    const session = { ...sampleSession('frozen', { status: 'running', turns: 1 }) } as unknown as { status: string; turns: number };
    const saved = store.saveTurn(turn as never, session as never);
    turn.phase = 'decided';
    turn.emits = ['changed'];
    session.status = 'done';
    session.turns = 9;
    await saved;
    expect(await store.listTurns('frozen')).toEqual([sampleTurn('frozen', 1, { phase: 'asking' })]);
    expect((await store.listSessions({ status: 'running' })).map((row) => [row.sid, row.turns])).toEqual([['frozen', 1]]);
    await store.close();
  });

  it('commits the writes still queued when the store closes', async () => {
    const file = freshFile();
    const store = createSqliteTranscriptStore(file);
    await store.createSession(sampleSession('closing'));
    const saved = store.saveTurn(sampleTurn('closing', 1));
    await store.close();
    await saved;
    const again = createSqliteTranscriptStore(file, { readOnly: true });
    expect(await again.listTurns('closing')).toEqual([sampleTurn('closing', 1)]);
    await again.close();
  });

  it('rejects every write of a round that cannot take the write lock, keeps none, and takes the next round', async () => {
    const file = freshFile();
    const store = createSqliteTranscriptStore(file, { busyTimeoutMs: 20 });
    await store.createSession(sampleSession('locked'));
    const other = new DatabaseSync(file, { timeout: 20 });
    other.exec('BEGIN IMMEDIATE');
    const outcomes = await Promise.allSettled([store.saveTurn(sampleTurn('locked', 1)), store.saveTurn(sampleTurn('locked', 2))]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    for (const outcome of outcomes) expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: 'LOOP_STORE_ERROR', sid: 'locked' });
    other.exec('ROLLBACK');
    other.close();
    expect(await store.listTurns('locked')).toEqual([]);
    await store.saveTurn(sampleTurn('locked', 1));
    expect(await store.listTurns('locked')).toEqual([sampleTurn('locked', 1)]);
    await store.close();
  });
});

describe('createWriteBatch', () => {
  const table = (): DatabaseSync => {
    const database = new DatabaseSync(':memory:');
    database.exec('CREATE TABLE items (name TEXT PRIMARY KEY)');
    return database;
  };
  const insert = (database: DatabaseSync, name: string) => () => database.prepare('INSERT INTO items (name) VALUES (?)').run(name).changes;
  const names = (database: DatabaseSync): string[] => (database.prepare('SELECT name FROM items ORDER BY name').all() as { name: string }[]).map((row) => row.name);
  const wrap = (error: unknown): Error => new Error(`wrapped: ${error instanceof Error ? error.message : String(error)}`);

  it('fails every write of a round whose transaction a write ended, the ones before it included', async () => {
    const database = table();
    const batch = createWriteBatch(database);
    const outcomes = await Promise.allSettled([
      batch.write(insert(database, 'a'), wrap),
      batch.write(() => {
        // Ends the round's transaction from inside, as a failure SQLite rolls back whole would.
        database.exec('ROLLBACK');
        throw new Error('gone');
      }, wrap),
      batch.write(insert(database, 'c'), wrap),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const outcome of outcomes) expect(String((outcome as PromiseRejectedResult).reason.message)).toBe('wrapped: gone');
    expect(names(database)).toEqual([]);
    expect(database.isTransaction).toBe(false);
    // The next round is a fresh transaction.
    await batch.write(insert(database, 'd'), wrap);
    expect(names(database)).toEqual(['d']);
  });

  it('commits the queue at once when it reaches its most writes, and the rest at the end of the job', async () => {
    const database = table();
    const batch = createWriteBatch(database, { maxWrites: 3 });
    const writes = ['a', 'b', 'c', 'd'].map((name) => batch.write(insert(database, name), wrap));
    // The third write filled the batch: committed before the job ends; the fourth waits for it.
    expect(names(database)).toEqual(['a', 'b', 'c']);
    expect(await Promise.all(writes)).toEqual([1, 1, 1, 1]);
    expect(names(database)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('runs a write alone in its round in a transaction of its own, and flush commits the queue at once', async () => {
    const database = table();
    const batch = createWriteBatch(database);
    const alone = batch.write(insert(database, 'x'), wrap);
    expect(names(database)).toEqual([]);
    batch.flush();
    expect(names(database)).toEqual(['x']);
    expect(await alone).toBe(1);
    await expect(batch.write(insert(database, 'x'), wrap)).rejects.toThrow(/^wrapped: .*UNIQUE/);
    expect(names(database)).toEqual(['x']);
  });

  /**
   * Two timers due together fire in one round of the event loop, each a job of its own; each writes one row through a
   * batch with the given busy test. Returns the writes' values, what the second timer saw on disk before its write, and
   * how many transactions the batch began.
   */
  async function writesOfTwoCallbacks(busy: boolean): Promise<{ results: (number | bigint)[]; seenBySecond: string[]; transactions: number; rows: string[] }> {
    const database = table();
    const transactions = countTransactions(database);
    const batch = createWriteBatch(database, { busy: () => busy });
    let seenBySecond: string[] = [];
    const results = await new Promise<(number | bigint)[]>((resolve) => {
      const writes: Promise<number | bigint>[] = [];
      // Two callbacks of one round for sure: immediates queued together run in one check phase. (Two 0 ms timers
      // did not always: on a loaded machine the second could fall due a millisecond later, in the next round.)
      setImmediate(() => writes.push(batch.write(insert(database, 'first'), wrap)));
      setImmediate(() => {
        seenBySecond = names(database);
        writes.push(batch.write(insert(database, 'second'), wrap));
        resolve(Promise.all(writes));
      });
    });
    return { results, seenBySecond, transactions: transactions.begun(), rows: names(database) };
  }

  it('with headroom, commits each job\'s writes at its end: callbacks of one round get a transaction each', async () => {
    // The second callback runs after the first job ended: the first write is already on disk.
    expect(await writesOfTwoCallbacks(false)).toEqual({ results: [1, 1], seenBySecond: ['first'], transactions: 2, rows: ['first', 'second'] });
  });

  it('while the host is busy, the writes of every callback of a round share one transaction at its end', async () => {
    expect(await writesOfTwoCallbacks(true)).toEqual({ results: [1, 1], seenBySecond: [], transactions: 1, rows: ['first', 'second'] });
  });

  it('gives the event loop a turn within a chain of awaited writes: a callback queued before it runs after the capped commits', async () => {
    const database = table();
    const transactions = countTransactions(database);
    const batch = createWriteBatch(database, { busy: () => false });
    let rowsWhenLoopTurned = -1;
    // Runs at the event loop's next check phase: after the chain ends if the chain never lets the loop turn.
    setImmediate(() => (rowsWhenLoopTurned = names(database).length));
    const chain = 40;
    // Each write waits for the one before: in microtasks alone, this chain would hold the loop to its end.
    for (let index = 0; index < chain; index += 1) await batch.write(insert(database, `row-${String(index).padStart(2, '0')}`), wrap);
    expect(names(database)).toHaveLength(chain);
    expect(rowsWhenLoopTurned).toBe(MAX_JOB_COMMITS_PER_TURN);
    // A transaction each: the writes were asked for one at a time.
    expect(transactions.begun()).toBe(chain);
  });

  it('leaves a batch queued at a job\'s end to the round\'s end when the host turned busy meanwhile', async () => {
    const database = table();
    let busy = false;
    const batch = createWriteBatch(database, { busy: () => busy });
    const first = batch.write(insert(database, 'first'), wrap);
    busy = true;
    const second = batch.write(insert(database, 'second'), wrap);
    // The job's end passes without a commit; the round's end commits both, in order.
    await Promise.resolve();
    expect(names(database)).toEqual([]);
    expect(await Promise.all([first, second])).toEqual([1, 1]);
    expect(names(database)).toEqual(['first', 'second']);
  });

  it('reads an event loop that was blocked as busy, and one that waited as idle', async () => {
    const busy = eventLoopBusy(0.85);
    const until = performance.now() + 60;
    while (performance.now() < until) {
      // Blocks the event loop, as a burst of callbacks does.
    }
    expect(busy()).toBe(true);
    // Idle for long enough that stray work of the test runner in the window cannot reach 0.85 of it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(busy()).toBe(false);
  });
});
