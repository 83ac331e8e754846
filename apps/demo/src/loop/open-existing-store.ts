/**
 * The store of a command that continues a stored session (`resume`,
 * `approve`, `deny`, `replay`): `--db postgres://…` opens the PostgreSQL
 * store, anything else an existing sessions file (a missing one is
 * `CLI_FILE_UNREADABLE`). A file that holds no AskLoop transcript is refused
 * as `askloop sessions` and `view` refuse it, before anything is written to
 * it: a writable open would add the controller's tables to any SQLite file.
 */
import { existsSync } from 'node:fs';
import type { TranscriptStore } from '@askloop/controller';
import type pg from 'pg';
import { openSessionsReadOnly } from '../commands/open-sessions-read-only.ts';
import { CliError } from '../cli-error.ts';
import type { CommandIo } from '../io.ts';
import { existingDbPath } from './default-db-path.ts';
import { openPostgresReader, openPostgresSessionStore, redactUrl } from './open-postgres-store.ts';
import { openSessionStore } from './open-session-loop.ts';
import { isPostgresUrl } from './store-location.ts';

/** How {@link openExistingStore} opens a sessions file. */
export interface ExistingStoreOptions {
  /** Only read (`replay`): the file is opened read-only and never written; a PostgreSQL database is not migrated. */
  readonly readOnly?: boolean;
  /** What gave the store, for the fix a message names: `--db` (the default), or the config's `store.path`. */
  readonly name?: string;
}

/** An opened store, and its sessions file when it is one (undefined for PostgreSQL). */
export interface ExistingStore {
  readonly store: TranscriptStore;
  readonly sqlitePath: string | undefined;
  /** The PostgreSQL store's pool (its queue is there too); the store's `close()` ends it. */
  readonly pool?: pg.Pool;
}

/** Opens the store `--db` names (or the default sessions file). */
export async function openExistingStore(db: string | undefined, io: CommandIo, options: ExistingStoreOptions = {}): Promise<ExistingStore> {
  if (db !== undefined && isPostgresUrl(db)) {
    // As `sessions` and `show`: a database without AskLoop's tables holds no session, and nothing is created there
    // (a mistyped database name would otherwise get the whole schema before "no such session").
    const reader = await openPostgresReader(db);
    if (reader === undefined) throw CliError.fromLoopError({ code: 'LOOP_SESSION_NOT_FOUND', message: `${redactUrl(db)} holds no AskLoop sessions (no askloop_sessions table); nothing was created there` });
    if (options.readOnly === true) return { store: reader.store, sqlitePath: undefined };
    await reader.store.close();
    const { store, pool } = await openPostgresSessionStore(db);
    return { store, sqlitePath: undefined, pool };
  }
  const name = options.name ?? '--db';
  const path = existingDbPath(db, io, name);
  // Read-only first: it checks the file holds the controller's tables without creating or migrating anything.
  const reader = openSessionsReadOnly(path, name, options.readOnly === true);
  // Removed since existingDbPath looked: the same error as if it had never been there.
  if (reader === undefined) throw new CliError('CLI_FILE_UNREADABLE', existsSync(path) ? 'the sessions file is empty: no session has run on it yet' : 'no sessions file here; run a session with askloop run first', { file: db ?? path });
  if (options.readOnly === true) return { store: reader, sqlitePath: path };
  await reader.close();
  return { store: openSessionStore(path, name), sqlitePath: path };
}
