/**
 * The tools' memory, scratch and idempotence stores on PostgreSQL, with the
 * same contract as the SQLite store (`@askloop/tools` store-types): values
 * as canonical JSON text, compare-and-swap that exactly one of several
 * concurrent writers wins (row locks under READ COMMITTED: an UPDATE waits
 * for a concurrent writer and re-checks the version), scratch versions that
 * keep increasing across expiry and purges (a purged entry keeps its row
 * and version, its value cleared), and idempotence claims that exactly one
 * caller gets. TTLs, ages and timestamps are read off the database server's
 * clock (`clock_timestamp()`, as the leases are): the one clock every host of
 * the database shares, so a host whose wall clock is set apart neither takes
 * another host's live scratch entry for expired nor keeps its own past their
 * TTL (an injected `clock` replaces it, for tests). Failures throw `ToolError('STORE_FAILED')` with the cause; a
 * bad argument from code is refused first, as on SQLite, with
 * `STORE_ARGUMENT_INVALID` (`checkedToolStores`).
 */
import {
  canonicalJson,
  checkedToolStores,
  recordedBefore,
  ToolError,
  isToolError,
  type CasResult,
  type Clock,
  type IdempotenceClaim,
  type IdempotenceRecord,
  type IdempotenceStore,
  type MemoryStore,
  type ScratchStore,
  type ToolStores,
  type ToolValue,
  type VersionedValue,
} from '@askloop/tools';
import type pg from 'pg';
import { poolRunner, type StatementRunner } from '../sql/statement-runner.ts';

/** Options of {@link createPostgresToolStores}. */
export interface PostgresToolStoresOptions {
  /**
   * Clock for TTLs and timestamps (inject one in tests). Default the database server's clock, which every host of the
   * database reads alike (a host's own may be set apart from the others').
   */
  readonly clock?: Clock;
}

const ABSENT: VersionedValue = Object.freeze({ value: null, version: 0 });

type IdempotenceRow = { session: string; turn: number; call_index: number; tool: string; arguments: string; result: string; recorded_at: string; pending: boolean };

const parseStored = (text: string): ToolValue => JSON.parse(text) as ToolValue;

/**
 * Now on the database server's clock, in ms since the epoch, unless the statement is given a time (`$n`: an injected
 * clock's): `COALESCE($n::bigint, …)`.
 */
const nowOr = (param: string): string => `COALESCE(${param}::bigint, floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint)`;

/** `recordedBefore`'s cut-off counted from 0: `now + this` is the cut-off, for a statement that reads now itself. */
const FROM_ZERO: Clock = { now: () => 0 };

async function guarded<T>(action: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (isToolError(error)) throw error;
    throw new ToolError('STORE_FAILED', `store ${action} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/** The stores over `pool` (apply `applyPostgresMigrations(pool)` first); pass them to `createAskLoop({ toolStores })`. */
export function createPostgresToolStores(pool: pg.Pool, options: PostgresToolStoresOptions = {}): ToolStores {
  const runner = poolRunner(pool);
  return toolStoresOn(async () => runner, options);
}

/** The stores over a runner chosen per call (for lease-bound stores: the turn's transaction). */
export function toolStoresOn(source: () => Promise<StatementRunner>, options: PostgresToolStoresOptions = {}): ToolStores {
  const clock = options.clock;
  /** The time a statement is given: an injected clock's, else null, for the database's own (`nowOr`). */
  const at = (): number | null => (clock === undefined ? null : clock.now());
  const on = <T>(action: string, body: (runner: StatementRunner) => Promise<T>): Promise<T> => guarded(action, async () => body(await source()));

  const memory: MemoryStore = {
    get: (key) =>
      on('memory get', async (runner) => {
        const row = (await runner.query<{ value: string; version: string }>('SELECT value, version FROM askloop_memory WHERE key = $1', [key])).rows[0];
        return row === undefined ? ABSENT : { value: parseStored(row.value), version: Number(row.version) };
      }),
    cas: (key, expectedVersion, value) =>
      on('memory cas', async (runner): Promise<CasResult> => {
        const text = canonicalJson(value);
        const won =
          expectedVersion === 0
            ? await runner.query(`INSERT INTO askloop_memory (key, value, version, updated_at) VALUES ($1, $2, 1, ${nowOr('$3')}) ON CONFLICT (key) DO NOTHING RETURNING version`, [key, text, at()])
            : await runner.query(`UPDATE askloop_memory SET value = $2, version = version + 1, updated_at = ${nowOr('$3')} WHERE key = $1 AND version = $4 RETURNING version`, [key, text, at(), expectedVersion]);
        if (won.rows[0] !== undefined) return { ok: true, version: Number(won.rows[0].version) };
        const current = (await runner.query<{ version: string }>('SELECT version FROM askloop_memory WHERE key = $1', [key])).rows[0];
        return { ok: false, version: current === undefined ? 0 : Number(current.version) };
      }),
  };

  const scratch: ScratchStore = {
    get: (session, key) =>
      on('scratch get', async (runner) => {
        const row = (
          await runner.query<{ value: string; version: string }>(`SELECT value, version FROM askloop_scratch WHERE session = $1 AND key = $2 AND value IS NOT NULL AND expires_at > ${nowOr('$3')}`, [
            session,
            key,
            at(),
          ])
        ).rows[0];
        return row === undefined ? ABSENT : { value: parseStored(row.value), version: Number(row.version) };
      }),
    putCas: (session, key, expectedVersion, value, ttlMs) =>
      on('scratch put', (runner) =>
        runner.atomic(async (query): Promise<CasResult> => {
          // A row to lock even for a key never written (version 0, no value: absent).
          await query.query('INSERT INTO askloop_scratch (session, key, value, version, expires_at) VALUES ($1, $2, NULL, 0, 0) ON CONFLICT (session, key) DO NOTHING', [session, key]);
          const row = (
            await query.query<{ version: string; expires_at: string; present: boolean }>(
              'SELECT version, expires_at, value IS NOT NULL AS present FROM askloop_scratch WHERE session = $1 AND key = $2 FOR UPDATE',
              [session, key],
            )
          ).rows[0];
          // Now read once the row is locked, in a statement of its own: a clock read in the locking statement is taken
          // before it waits for the lock (a step that holds it may run for minutes), so the entry written would have
          // lived that much less than its TTL, or been expired already. The expiry check and the new expiry count
          // from this one instant.
          const now = Number((await query.query<{ now: string }>(`SELECT ${nowOr('$1')} AS now`, [at()])).rows[0]?.now);
          const stored = Number(row?.version ?? 0);
          const live = row !== undefined && row.present && Number(row.expires_at) > now ? stored : 0;
          if (live !== expectedVersion) return { ok: false, version: live };
          await query.query('UPDATE askloop_scratch SET value = $3, version = $4, expires_at = $5 WHERE session = $1 AND key = $2', [session, key, canonicalJson(value), stored + 1, now + ttlMs]);
          return { ok: true, version: stored + 1 };
        }),
      ),
    purgeExpired: () =>
      on('scratch purge', async (runner) => {
        // The row and its version stay, so the next write continues the version count and a stale CAS never wins.
        const result = await runner.query(`UPDATE askloop_scratch SET value = NULL WHERE value IS NOT NULL AND expires_at <= ${nowOr('$1')}`, [at()]);
        return result.rowCount ?? 0;
      }),
  };

  const toRecord = (row: IdempotenceRow): IdempotenceRecord => ({
    session: row.session,
    turn: Number(row.turn),
    callIndex: Number(row.call_index),
    tool: row.tool,
    argumentsJson: row.arguments,
    result: parseStored(row.result),
    recordedAt: Number(row.recorded_at),
  });
  const selectRow = async (runner: StatementRunner, session: string, turn: number, callIndex: number): Promise<IdempotenceRow | undefined> =>
    (await runner.query<IdempotenceRow>('SELECT * FROM askloop_idempotence WHERE session = $1 AND turn = $2 AND call_index = $3', [session, turn, callIndex])).rows[0];

  const idempotence: IdempotenceStore = {
    lookup: (session, turn, callIndex) =>
      on('idempotence lookup', async (runner) => {
        const row = await selectRow(runner, session, turn, callIndex);
        return row === undefined || row.pending ? undefined : toRecord(row);
      }),
    claim: (key) =>
      on('idempotence claim', async (runner): Promise<IdempotenceClaim> => {
        // The primary key decides: of concurrent inserts exactly one succeeds (the others wait for it, then find its row).
        const inserted = await runner.query(
          `INSERT INTO askloop_idempotence (session, turn, call_index, tool, arguments, result, recorded_at, pending) VALUES ($1, $2, $3, $4, $5, 'null', ${nowOr('$6')}, true) ON CONFLICT DO NOTHING RETURNING 1`,
          [key.session, key.turn, key.callIndex, key.tool, key.argumentsJson, at()],
        );
        if (inserted.rows.length === 1) return { state: 'claimed' };
        const row = await selectRow(runner, key.session, key.turn, key.callIndex);
        if (row === undefined) return { state: 'pending', tool: key.tool, argumentsJson: key.argumentsJson };
        return row.pending ? { state: 'pending', tool: row.tool, argumentsJson: row.arguments } : { state: 'recorded', record: toRecord(row) };
      }),
    record: (record) =>
      on('idempotence record', async (runner) => {
        const row = (
          await runner.query<IdempotenceRow>(
            `INSERT INTO askloop_idempotence AS i (session, turn, call_index, tool, arguments, result, recorded_at, pending) VALUES ($1, $2, $3, $4, $5, $6, ${nowOr('$7')}, false)
             ON CONFLICT (session, turn, call_index) DO UPDATE SET result = excluded.result, recorded_at = excluded.recorded_at, pending = false WHERE i.pending
             RETURNING *`,
            [record.session, record.turn, record.callIndex, record.tool, record.argumentsJson, canonicalJson(record.result), at()],
          )
        ).rows[0];
        // No row returned: a finished record was there already, and it is kept.
        const stored = row ?? (await selectRow(runner, record.session, record.turn, record.callIndex));
        if (stored === undefined) throw new ToolError('STORE_FAILED', `idempotence record of ${record.session}/${record.turn}/${record.callIndex} vanished`);
        return toRecord(stored);
      }),
    release: (session, turn, callIndex) =>
      on('idempotence release', async (runner) => {
        await runner.query('DELETE FROM askloop_idempotence WHERE session = $1 AND turn = $2 AND call_index = $3 AND pending', [session, turn, callIndex]);
      }),
    forgetBefore: (session, turn, olderThanMs) =>
      on('idempotence forget', (runner) => {
        // The cut-off: an injected clock's, or the database's now less the age (`nowOr` adds `fromNow` to it).
        const fromNow = recordedBefore(FROM_ZERO, olderThanMs);
        if (!Number.isFinite(fromNow)) return Promise.resolve(0);
        const before = clock === undefined ? null : recordedBefore(clock, olderThanMs);
        // In a savepoint, so a failure inside a worker's step leaves its transaction whole; SKIP LOCKED, so it never
        // waits for rows another transaction holds (a stale step's): those are left for a later turn to remove.
        return runner.atomic(async (query) => {
          const removed = await query.query(
            `DELETE FROM askloop_idempotence WHERE ctid IN (SELECT ctid FROM askloop_idempotence WHERE session = $1 AND turn < $2 AND recorded_at < ${nowOr('$3')} + $4::bigint FOR UPDATE SKIP LOCKED)`,
            [session, turn, before, clock === undefined ? fromNow : 0],
          );
          return removed.rowCount ?? 0;
        });
      }),
  };

  // Bad arguments are refused before a statement is sent (or a lease-bound step's transaction opened), as on every backend.
  return checkedToolStores({ memory, scratch, idempotence });
}
