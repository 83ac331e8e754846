/**
 * One SQLite file shared by several owners (the tools' stores, the
 * controller's transcript…), each with its own ordered migrations recorded in
 * `schema_migrations(owner, version, name, applied_at)`. The file used to keep
 * one global `PRAGMA user_version` for the tools alone; a file written that
 * way is upgraded in place (its rows become owner `tools`, `user_version` is
 * left as it was and no longer read).
 *
 * Every migration runs in its own `BEGIN IMMEDIATE` transaction and re-reads
 * the applied versions inside the write lock, so two processes opening one
 * file at once never apply a migration twice.
 */
import type { DatabaseSync } from 'node:sqlite';
import { systemClock, type Clock } from '../clock.ts';
import { ToolError, isToolError } from '../errors/tool-error.ts';

/**
 * `node:sqlite`, loaded where a file is opened instead of imported: an old
 * Node (20) has no such module, and a static import of it would fail when
 * that Node links the bundle (`ERR_UNKNOWN_BUILTIN_MODULE`), before the
 * package's Node version check runs to say which Node it needs. Only types
 * are imported from it. The controller and the CLI open their files through
 * it too, so the rule lives in one place.
 */
export function loadSqlite(): typeof import('node:sqlite') {
  return process.getBuiltinModule('node:sqlite');
}

/** One schema migration of one owner. Append new ones; never edit an applied one. */
export interface SqliteMigration {
  /** Ascending from 1 within its owner. */
  readonly version: number;
  readonly name: string;
  readonly sql: string;
  /**
   * Runs after `sql`, in the same transaction: fills what SQL cannot compute
   * (a value only the package's own code derives from a row), so the new
   * version is never recorded with the fill half done.
   */
  readonly fill?: (database: DatabaseSync) => void;
}

/** Options of {@link openDatabase}. */
export interface OpenDatabaseOptions {
  /** How long to wait for another connection's write lock, in ms. Default 5000. */
  readonly busyTimeoutMs?: number;
}

/** Options of {@link applyMigrations}. */
export interface ApplyMigrationsOptions {
  /** Stamps `applied_at`. Default the system clock. */
  readonly clock?: Clock;
}

type Row = Record<string, unknown>;

/** The owner whose migrations a pre-`schema_migrations(owner)` file holds. */
const LEGACY_OWNER = 'tools';

function storeFailure(action: string, error: unknown): ToolError {
  if (isToolError(error)) return error;
  return new ToolError('STORE_FAILED', `store ${action} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

/** Runs `body` inside `BEGIN IMMEDIATE` (the write lock is taken before anything is read). */
export function immediateTransaction<T>(database: DatabaseSync, body: () => T): T {
  database.exec('BEGIN IMMEDIATE');
  try {
    const result = body();
    database.exec('COMMIT');
    return result;
  } catch (error) {
    if (database.isTransaction) database.exec('ROLLBACK');
    throw error;
  }
}

/**
 * Opens (creating if needed) a SQLite file with the settings every owner
 * relies on: a busy timeout, WAL (readers beside a writer; not for
 * `':memory:'`) and `synchronous = NORMAL`. Apply each owner's migrations
 * with {@link applyMigrations}. Throws `STORE_FAILED`.
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): DatabaseSync {
  let database: DatabaseSync | undefined;
  try {
    database = new (loadSqlite().DatabaseSync)(file, { timeout: options.busyTimeoutMs ?? 5000 });
    if (file !== ':memory:') database.exec('PRAGMA journal_mode = WAL');
    database.exec('PRAGMA synchronous = NORMAL');
    return database;
  } catch (error) {
    if (database?.isOpen === true) database.close();
    throw storeFailure(`open of ${file}`, error);
  }
}

/**
 * What is wrong with `value` as an open `node:sqlite` connection, or `undefined`: anything else failed deep inside
 * on a JavaScript error (`fileOrDatabase.location is not a function`).
 */
export function openDatabaseProblem(value: unknown): string | undefined {
  const database = value as Partial<Record<'location' | 'prepare' | 'exec', unknown>> & { isOpen?: unknown };
  if (typeof value !== 'object' || value === null || typeof database.location !== 'function' || typeof database.prepare !== 'function' || typeof database.exec !== 'function') {
    return `an open DatabaseSync of node:sqlite (openDatabase(file)), got ${value === null ? 'null' : typeof value === 'object' ? 'an object that is not one' : typeof value === 'string' ? 'a string' : `${typeof value} ${String(value).slice(0, 40)}`}`;
  }
  if (database.isOpen === false) return 'an open DatabaseSync, got one that is closed';
  return undefined;
}

function columnsOf(database: DatabaseSync, table: string): string[] {
  return (database.prepare(`PRAGMA table_info(${table})`).all() as Row[]).map((row) => String(row.name));
}

/** Creates `schema_migrations` with owners, converting the single-owner table of older files. */
function ensureMigrationsTable(database: DatabaseSync): void {
  // A file already set up is only read: opening a store must not wait for (or fail on) another process's write lock.
  if (columnsOf(database, 'schema_migrations').includes('owner')) return;
  immediateTransaction(database, () => {
    const columns = columnsOf(database, 'schema_migrations');
    if (columns.includes('owner')) return;
    if (columns.length > 0) database.exec('ALTER TABLE schema_migrations RENAME TO schema_migrations_single_owner');
    database.exec(`
      CREATE TABLE schema_migrations (
        owner TEXT NOT NULL,
        version INTEGER NOT NULL,
        name TEXT NOT NULL,
        applied_at INTEGER NOT NULL,
        PRIMARY KEY (owner, version)
      )
    `);
    if (columns.length > 0) {
      database.prepare('INSERT INTO schema_migrations (owner, version, name, applied_at) SELECT ?, version, name, applied_at FROM schema_migrations_single_owner').run(LEGACY_OWNER);
      database.exec('DROP TABLE schema_migrations_single_owner');
    }
  });
}

function appliedVersion(database: DatabaseSync, owner: string): number {
  const row = database.prepare('SELECT MAX(version) AS version FROM schema_migrations WHERE owner = ?').get(owner) as Row;
  return row.version === null ? 0 : Number(row.version);
}

/**
 * Applies `owner`'s migrations that have not run on `database` yet, in
 * order, and returns the owner's schema version. Other owners' tables and
 * versions are untouched. Throws `STORE_SCHEMA_NEWER` when the file has a
 * later version for this owner than `migrations` know, `STORE_FAILED` otherwise.
 */
export function applyMigrations(database: DatabaseSync, owner: string, migrations: readonly SqliteMigration[], options: ApplyMigrationsOptions = {}): number {
  const notDatabase = openDatabaseProblem(database);
  if (notDatabase !== undefined) throw new ToolError('STORE_FAILED', `applyMigrations needs ${notDatabase}`);
  if (typeof owner !== 'string' || owner.trim() === '') throw new ToolError('STORE_FAILED', `applyMigrations needs a non-empty owner name, e.g. "controller", got ${typeof owner === 'string' ? '""' : typeof owner}`);
  if (!Array.isArray(migrations)) throw new ToolError('STORE_FAILED', `applyMigrations needs a list of migrations { version, name, sql }, got ${migrations === null ? 'null' : typeof migrations}`);
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) throw new ToolError('STORE_FAILED', `migration ${index + 1} of ${owner} has version ${migration.version}; versions must count up from 1`);
  });
  const clock = options.clock ?? systemClock;
  const latest = migrations.length;
  try {
    ensureMigrationsTable(database);
    const found = appliedVersion(database, owner);
    if (found > latest) throw new ToolError('STORE_SCHEMA_NEWER', `database schema version ${found} of '${owner}' is newer than the ${latest} this package knows`);
    for (const migration of migrations) {
      // Read first, without the write lock: a current schema takes no lock at all.
      if (appliedVersion(database, owner) >= migration.version) continue;
      immediateTransaction(database, () => {
        // Re-read inside the write lock: another process may have migrated meanwhile.
        if (appliedVersion(database, owner) >= migration.version) return;
        database.exec(migration.sql);
        migration.fill?.(database);
        database.prepare('INSERT INTO schema_migrations (owner, version, name, applied_at) VALUES (?, ?, ?, ?)').run(owner, migration.version, migration.name, clock.now());
      });
    }
    return appliedVersion(database, owner);
  } catch (error) {
    throw storeFailure(`migration of '${owner}'`, error);
  }
}
