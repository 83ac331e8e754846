/**
 * Schema of the tools' SQLite store, as ordered migrations of the owner
 * {@link SQLITE_MIGRATION_OWNER}, applied by `applyMigrations` and recorded in
 * `schema_migrations` (see sqlite-database.ts). Append new migrations; never
 * edit an applied one (migration 1's `CREATE TABLE IF NOT EXISTS
 * schema_migrations` is a no-op now that `applyMigrations` creates the table first).
 */
import type { SqliteMigration } from './sqlite-database.ts';

export type { SqliteMigration } from './sqlite-database.ts';

/** The owner name of the tools' migrations in `schema_migrations`. */
export const SQLITE_MIGRATION_OWNER = 'tools';

/** Every migration, in order. */
export const SQLITE_MIGRATIONS: readonly SqliteMigration[] = [
  {
    version: 1,
    name: 'memory, scratch and idempotence tables',
    sql: `
      CREATE TABLE IF NOT EXISTS schema_migrations (
        version INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        applied_at INTEGER NOT NULL
      );
      CREATE TABLE memory (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        version INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE TABLE scratch (
        session TEXT NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        version INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        PRIMARY KEY (session, key)
      );
      CREATE INDEX scratch_expires_at ON scratch (expires_at);
      CREATE TABLE idempotence (
        session TEXT NOT NULL,
        turn INTEGER NOT NULL,
        call_index INTEGER NOT NULL,
        tool TEXT NOT NULL,
        arguments TEXT NOT NULL,
        result TEXT NOT NULL,
        recorded_at INTEGER NOT NULL,
        PRIMARY KEY (session, turn, call_index)
      );
    `,
  },
  {
    version: 2,
    name: 'scratch tombstones and pending idempotence claims',
    // Tombstones keep the last version of a purged scratch key, so versions keep increasing across purges.
    // `pending = 1` marks a call that a host has claimed and not finished (result is 'null' until then).
    sql: `
      CREATE TABLE scratch_tombstones (
        session TEXT NOT NULL,
        key TEXT NOT NULL,
        version INTEGER NOT NULL,
        PRIMARY KEY (session, key)
      );
      ALTER TABLE idempotence ADD COLUMN pending INTEGER NOT NULL DEFAULT 0;
    `,
  },
];

/** The schema version this package writes. */
export const SQLITE_SCHEMA_VERSION = SQLITE_MIGRATIONS[SQLITE_MIGRATIONS.length - 1]?.version ?? 0;
