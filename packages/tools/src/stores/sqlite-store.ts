/**
 * The embedded store: memory, scratch and idempotence records in one SQLite
 * file through Node 24's built-in `node:sqlite` (no native dependency). WAL
 * mode lets readers run beside a writer; every compare-and-swap runs inside
 * `BEGIN IMMEDIATE`, which takes the write lock before reading, so two
 * connections (or processes) racing on one key serialise and exactly one wins.
 * Values are stored as canonical JSON text.
 */
import type { DatabaseSync } from 'node:sqlite';
import { systemClock, type Clock } from '../clock.ts';
import { ToolError, isToolError } from '../errors/tool-error.ts';
import { canonicalJson } from '../spec/canonical-json.ts';
import type { ToolValue } from '../spec/tool-value.ts';
import { SQLITE_MIGRATIONS, SQLITE_MIGRATION_OWNER } from './sqlite-migrations.ts';
import { applyMigrations, immediateTransaction, openDatabase, openDatabaseProblem } from './sqlite-database.ts';
import { checkPackOptions, count, methods } from '../packs/pack-options.ts';
import { recordedBefore } from './recorded-before.ts';
import { checkedToolStores } from './checked-stores.ts';
import type { CasResult, IdempotenceClaim, IdempotenceRecord, IdempotenceStore, MemoryStore, ScratchStore, ToolStores, VersionedValue } from './store-types.ts';

/** Options of {@link openSqliteStore}. */
export interface SqliteStoreOptions {
  /**
   * Clock for TTLs and timestamps (inject one in tests). Default the system clock of this host: a SQLite file is on
   * one host, so every process using it reads the same clock.
   */
  readonly clock?: Clock;
  /** How long to wait for another connection's write lock, in ms. Default 5000. Only when a file name is given. */
  readonly busyTimeoutMs?: number;
}

/** The SQLite-backed stores plus lifecycle. */
export interface SqliteToolStore extends ToolStores {
  /** The database file (or `:memory:`). */
  readonly file: string;
  /** The tools' schema version (owner `tools` in `schema_migrations`) after migration. */
  readonly schemaVersion: number;
  close(): void;
}

type Row = Record<string, unknown>;

/** The options {@link openSqliteStore} knows: a misspelt one (`clok`) was ignored, a timeout of text failed as STORE_FAILED. */
const SQLITE_STORE_OPTIONS = { clock: methods('a clock', 'now'), busyTimeoutMs: count(0) };

const ABSENT: VersionedValue = Object.freeze({ value: null, version: 0 });

function storeFailure(action: string, error: unknown): ToolError {
  if (isToolError(error)) return error;
  return new ToolError('STORE_FAILED', `store ${action} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

function run<T>(action: string, body: () => T): Promise<T> {
  try {
    return Promise.resolve(body());
  } catch (error) {
    return Promise.reject(storeFailure(action, error));
  }
}

const immediate = immediateTransaction;

function parseStored(text: unknown): ToolValue {
  return JSON.parse(String(text)) as ToolValue;
}

/**
 * Opens (creating if needed) the store in `file` — or uses `database`, an
 * already open connection shared with other owners (see `openDatabase`) —
 * and applies the tools' migrations. Use `':memory:'` for a throwaway store.
 * `close()` closes the connection only when this function opened it.
 * Throws `STORE_ARGUMENT_INVALID` for an argument of the wrong kind (neither a
 * file name nor an open connection, an unknown option, a `busyTimeoutMs` that is
 * not a whole number >= 0, a `clock` without `now()`), `STORE_FAILED` or
 * `STORE_SCHEMA_NEWER`; its stores' methods reject a bad argument with
 * `STORE_ARGUMENT_INVALID` (`checkedToolStores`).
 */
export function openSqliteStore(fileOrDatabase: string | DatabaseSync, options: SqliteStoreOptions = {}): SqliteToolStore {
  // A wrong argument is the caller's bug, refused before anything is opened (it failed on a JavaScript error).
  const notDatabase = typeof fileOrDatabase === 'string' ? undefined : openDatabaseProblem(fileOrDatabase);
  if (notDatabase !== undefined) throw new ToolError('STORE_ARGUMENT_INVALID', `openSqliteStore() takes a file name or ${notDatabase}`);
  checkPackOptions('openSqliteStore', options, SQLITE_STORE_OPTIONS, undefined, 'STORE_ARGUMENT_INVALID');
  const clock = options.clock ?? systemClock;
  const owned = typeof fileOrDatabase === 'string';
  const file = owned ? fileOrDatabase : (fileOrDatabase.location() ?? ':memory:');
  const database = owned ? openDatabase(fileOrDatabase, options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs }) : fileOrDatabase;
  let schemaVersion: number;
  try {
    schemaVersion = applyMigrations(database, SQLITE_MIGRATION_OWNER, SQLITE_MIGRATIONS, { clock });
  } catch (error) {
    if (owned) database.close();
    throw storeFailure(`open of ${file}`, error);
  }

  const memory: MemoryStore = {
    get: (key) =>
      run('memory get', () => {
        const row = database.prepare('SELECT value, version FROM memory WHERE key = ?').get(key) as Row | undefined;
        return row === undefined ? ABSENT : { value: parseStored(row.value), version: Number(row.version) };
      }),
    cas: (key, expectedVersion, value) =>
      run('memory cas', () =>
        immediate(database, (): CasResult => {
          const row = database.prepare('SELECT version FROM memory WHERE key = ?').get(key) as Row | undefined;
          const current = row === undefined ? 0 : Number(row.version);
          if (current !== expectedVersion) return { ok: false, version: current };
          const next = current + 1;
          database
            .prepare('INSERT INTO memory (key, value, version, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value, version = excluded.version, updated_at = excluded.updated_at')
            .run(key, canonicalJson(value), next, clock.now());
          return { ok: true, version: next };
        }),
      ),
  };

  const scratch: ScratchStore = {
    get: (session, key) =>
      run('scratch get', () => {
        const row = database.prepare('SELECT value, version FROM scratch WHERE session = ? AND key = ? AND expires_at > ?').get(session, key, clock.now()) as Row | undefined;
        return row === undefined ? ABSENT : { value: parseStored(row.value), version: Number(row.version) };
      }),
    putCas: (session, key, expectedVersion, value, ttlMs) =>
      run('scratch put', () =>
        immediate(database, (): CasResult => {
          const now = clock.now();
          const row = database.prepare('SELECT version, expires_at FROM scratch WHERE session = ? AND key = ?').get(session, key) as Row | undefined;
          const tombstone = row === undefined ? (database.prepare('SELECT version FROM scratch_tombstones WHERE session = ? AND key = ?').get(session, key) as Row | undefined) : undefined;
          const stored = Number(row?.version ?? tombstone?.version ?? 0);
          const live = row !== undefined && Number(row.expires_at) > now ? stored : 0;
          if (live !== expectedVersion) return { ok: false, version: live };
          const next = stored + 1;
          database
            .prepare('INSERT INTO scratch (session, key, value, version, expires_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (session, key) DO UPDATE SET value = excluded.value, version = excluded.version, expires_at = excluded.expires_at')
            .run(session, key, canonicalJson(value), next, now + ttlMs);
          if (tombstone !== undefined) database.prepare('DELETE FROM scratch_tombstones WHERE session = ? AND key = ?').run(session, key);
          return { ok: true, version: next };
        }),
      ),
    purgeExpired: () =>
      run('scratch purge', () =>
        immediate(database, () => {
          const now = clock.now();
          // Keep each purged key's version, else the next write would restart at 1 and a stale CAS could win.
          database
            .prepare('INSERT INTO scratch_tombstones (session, key, version) SELECT session, key, version FROM scratch WHERE expires_at <= ? ON CONFLICT (session, key) DO UPDATE SET version = excluded.version')
            .run(now);
          return Number(database.prepare('DELETE FROM scratch WHERE expires_at <= ?').run(now).changes);
        }),
      ),
  };

  const toRecord = (row: Row): IdempotenceRecord => ({
    session: String(row.session),
    turn: Number(row.turn),
    callIndex: Number(row.call_index),
    tool: String(row.tool),
    argumentsJson: String(row.arguments),
    result: parseStored(row.result),
    recordedAt: Number(row.recorded_at),
  });
  const selectRecord = (session: string, turn: number, callIndex: number): IdempotenceRecord | undefined => {
    const row = selectRow(session, turn, callIndex);
    return row === undefined || Number(row.pending) === 1 ? undefined : toRecord(row);
  };
  const selectRow = (session: string, turn: number, callIndex: number): Row | undefined =>
    database.prepare('SELECT * FROM idempotence WHERE session = ? AND turn = ? AND call_index = ?').get(session, turn, callIndex) as Row | undefined;
  const idempotence: IdempotenceStore = {
    lookup: (session, turn, callIndex) => run('idempotence lookup', () => selectRecord(session, turn, callIndex)),
    claim: (key) =>
      run('idempotence claim', () =>
        immediate(database, (): IdempotenceClaim => {
          const row = selectRow(key.session, key.turn, key.callIndex);
          if (row !== undefined) {
            return Number(row.pending) === 1 ? { state: 'pending', tool: String(row.tool), argumentsJson: String(row.arguments) } : { state: 'recorded', record: toRecord(row) };
          }
          database
            .prepare("INSERT INTO idempotence (session, turn, call_index, tool, arguments, result, recorded_at, pending) VALUES (?, ?, ?, ?, ?, 'null', ?, 1)")
            .run(key.session, key.turn, key.callIndex, key.tool, key.argumentsJson, clock.now());
          return { state: 'claimed' };
        }),
      ),
    record: (record) =>
      run('idempotence record', () => {
        database
          .prepare(
            'INSERT INTO idempotence (session, turn, call_index, tool, arguments, result, recorded_at, pending) VALUES (?, ?, ?, ?, ?, ?, ?, 0) ON CONFLICT DO UPDATE SET result = excluded.result, recorded_at = excluded.recorded_at, pending = 0 WHERE pending = 1',
          )
          .run(record.session, record.turn, record.callIndex, record.tool, record.argumentsJson, canonicalJson(record.result), clock.now());
        return selectRecord(record.session, record.turn, record.callIndex) as IdempotenceRecord;
      }),
    release: (session, turn, callIndex) =>
      run('idempotence release', () => {
        database.prepare('DELETE FROM idempotence WHERE session = ? AND turn = ? AND call_index = ? AND pending = 1').run(session, turn, callIndex);
      }),
    forgetBefore: (session, turn, olderThanMs) =>
      run('idempotence forget', () => {
        const before = recordedBefore(clock, olderThanMs);
        return Number.isFinite(before) ? Number(database.prepare('DELETE FROM idempotence WHERE session = ? AND turn < ? AND recorded_at < ?').run(session, turn, before).changes) : 0;
      }),
  };

  // Bad arguments are refused before SQL sees them, as every backend refuses them.
  const checked = checkedToolStores({ memory, scratch, idempotence });
  return Object.freeze({
    file,
    schemaVersion,
    memory: checked.memory,
    scratch: checked.scratch,
    idempotence: checked.idempotence,
    close: () => {
      // A shared connection belongs to whoever opened it.
      if (owned && database.isOpen) database.close();
    },
  });
}
