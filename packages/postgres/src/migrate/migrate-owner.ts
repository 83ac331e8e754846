/**
 * Schema migrations per owner on one PostgreSQL database, recorded in
 * `askloop_schema_migrations(owner, version, name, applied_at)` — the same
 * shape as the SQLite store's `schema_migrations`, prefixed because a
 * PostgreSQL database is often shared with other applications. An owner's
 * pending migrations run in one transaction holding a transaction-level
 * advisory lock, so hosts starting together never apply one twice and a
 * failing migration leaves nothing behind (PostgreSQL's DDL is transactional).
 * A database whose owners are all current is read, not altered: a role with
 * only the rights to use the tables can start a host on it.
 */
import type pg from 'pg';
import { PostgresStoreError } from '../errors/postgres-store-error.ts';
import { inTransaction, queryFailure } from '../sql/statement-runner.ts';
import { migrationHint } from './migration-hint.ts';

/** One migration of one owner. Append new ones; never edit an applied one. */
export interface PostgresMigration {
  /** Ascending from 1 within its owner. */
  readonly version: number;
  readonly name: string;
  readonly sql: string;
  /**
   * Runs after `sql` on the same client, in the same transaction and under
   * the same lock: fills what SQL cannot compute (a value only the package's
   * own code derives from a row), so the version is never recorded with the
   * fill half done.
   */
  readonly fill?: (client: pg.PoolClient) => Promise<void>;
}

/** The advisory lock key every AskLoop migration takes (any constant; "askloop" in ASCII). */
const MIGRATION_LOCK = 0x61736b6c6f6f70n;

/**
 * Applies `owner`'s migrations that have not run on the database yet and
 * returns the owner's schema version. Throws `PG_SCHEMA_NEWER` when the
 * database knows a later version of the owner, `PG_MIGRATION_INVALID` for a
 * malformed list, `PG_QUERY_FAILED` when a statement fails.
 */
export async function migrateOwner(pool: pg.Pool, owner: string, migrations: readonly PostgresMigration[]): Promise<number> {
  if (owner.trim() === '') throw new PostgresStoreError('PG_MIGRATION_INVALID', 'migrateOwner needs a non-empty owner name, e.g. "controller"');
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) throw new PostgresStoreError('PG_MIGRATION_INVALID', `migration ${index + 1} of ${owner} has version ${migration.version}; versions must count up from 1`);
  });
  try {
    return await inTransaction(pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK.toString()]);
      // Created only when missing: even `CREATE TABLE IF NOT EXISTS` needs CREATE on the schema, which a role that only
      // reads and writes the tables (a host on a database migrated by its owner) does not have.
      const present = await client.query<{ present: boolean }>("SELECT to_regclass('askloop_schema_migrations') IS NOT NULL AS present");
      if (present.rows[0]?.present !== true) {
        await client.query(`
          CREATE TABLE IF NOT EXISTS askloop_schema_migrations (
            owner text NOT NULL,
            version integer NOT NULL,
            name text NOT NULL,
            applied_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (owner, version)
          )`);
      }
      const found = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM askloop_schema_migrations WHERE owner = $1', [owner]);
      const applied = found.rows[0]?.version ?? 0;
      if (applied > migrations.length) {
        throw new PostgresStoreError('PG_SCHEMA_NEWER', `database schema version ${applied} of '${owner}' is newer than the ${migrations.length} this package knows: a newer @askloop/postgres (a newer askloop) migrated it; upgrade this host's, or use another database`);
      }
      for (const migration of migrations.slice(applied)) {
        await client.query(migration.sql);
        await migration.fill?.(client);
        await client.query('INSERT INTO askloop_schema_migrations (owner, version, name) VALUES ($1, $2, $3)', [owner, migration.version, migration.name]);
      }
      return migrations.length;
    });
  } catch (error) {
    const failure = queryFailure(`migration of '${owner}'`, error);
    const hint = migrationHint(error);
    // The cause keeps the server's error (its SQLSTATE): callers read it, as they read any PG_QUERY_FAILED's.
    throw hint === '' || !(failure instanceof PostgresStoreError) || failure.code !== 'PG_QUERY_FAILED' ? failure : new PostgresStoreError('PG_QUERY_FAILED', `${failure.message}${hint}`, { cause: error });
  }
}
