/**
 * Opens the sessions file for `askloop sessions` and `askloop show`, which
 * only read (a read-only connection): a file that does not exist is not
 * created (there are simply no sessions yet), and one that is not a sessions
 * database is reported with the controller's code.
 */
import { createSqliteTranscriptStore, isLoopError, type TranscriptStore } from '@askloop/controller';
import { statSync } from 'node:fs';
import { CliError } from '../cli-error.ts';
import { refuseDirectory } from '../loop/default-db-path.ts';

/**
 * The store, or undefined when the file does not exist or is empty: SQLite
 * reads a file of no bytes as an empty database, and `askloop run --db` takes
 * one so; read-only, its missing tables made it look like another program's
 * file (`LOOP_STORE_ERROR`). `name` gave the file (`--db`, or the config's `store.path`), for the fix.
 */
export function openSessionsReadOnly(dbPath: string, name = '--db'): TranscriptStore | undefined {
  const stat = statSync(dbPath, { throwIfNoEntry: false });
  if (stat === undefined) return undefined;
  refuseDirectory(dbPath, undefined, name);
  if (stat.size === 0) return undefined;
  try {
    // Read-only: listing never creates, migrates or locks the file for writing while a run uses it.
    return createSqliteTranscriptStore(dbPath, { readOnly: true });
  } catch (error) {
    if (isLoopError(error)) throw CliError.fromLoopError(error, dbPath);
    throw new CliError('CLI_FILE_UNREADABLE', `cannot open the sessions database: ${(error as Error).message}`, { file: dbPath });
  }
}
