/**
 * The store of a command that continues a stored session (`resume`,
 * `approve`, `deny`, `replay`): `--db postgres://…` opens the PostgreSQL
 * store, anything else an existing sessions file (a missing one is
 * `CLI_FILE_UNREADABLE`).
 */
import type { TranscriptStore } from '@askloop/controller';
import type { CommandIo } from '../io.ts';
import { existingDbPath } from './default-db-path.ts';
import { openPostgresSessionStore } from './open-postgres-store.ts';
import { openSessionStore } from './open-session-loop.ts';
import { isPostgresUrl } from './store-location.ts';

/** Opens the store `--db` names (or the default sessions file). */
export async function openExistingStore(db: string | undefined, io: CommandIo): Promise<TranscriptStore> {
  if (db !== undefined && isPostgresUrl(db)) return (await openPostgresSessionStore(db)).store;
  return openSessionStore(existingDbPath(db, io));
}
