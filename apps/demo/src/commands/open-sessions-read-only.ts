/**
 * Opens the sessions file for `askloop sessions` and `askloop show`, which
 * only read (a read-only connection): a file that does not exist is not
 * created (there are simply no sessions yet), and one that is not a sessions
 * database — another program's, a damaged one — is reported with the
 * controller's code, the file named once, and the fix.
 */
import { createSqliteTranscriptStore, isLoopError, type TranscriptStore } from '@askloop/controller';
import { statSync } from 'node:fs';
import { CliError } from '../cli-error.ts';
import { storeReadError } from '../loop/damaged-store.ts';
import { refuseDirectory } from '../loop/default-db-path.ts';
import { foreignDatabaseTables, shownTables } from '../loop/foreign-database.ts';
import { storeOpenHint } from '../loop/store-open-hint.ts';

/**
 * The store, or undefined when the file does not exist or is empty: SQLite
 * reads a file of no bytes as an empty database, and `askloop run --db` takes
 * one so; read-only, its missing tables made it look like another program's
 * file (`LOOP_STORE_ERROR`). `name` gave the file (`--db`, or the config's `store.path`), for the fix;
 * `reading` is false when the command goes on to write the file (`resume`, `approve`, `deny`), for the fix too.
 */
export function openSessionsReadOnly(dbPath: string, name = '--db', reading = true): TranscriptStore | undefined {
  const stat = statSync(dbPath, { throwIfNoEntry: false });
  if (stat === undefined) return undefined;
  refuseDirectory(dbPath, undefined, name);
  if (stat.size === 0) return undefined;
  // Another program's database: said as run says it, once, with the fix (the store's words named the file twice).
  const tables = foreignDatabaseTables(dbPath);
  if (tables !== undefined) {
    throw CliError.fromLoopError({ code: 'LOOP_STORE_ERROR', message: `another program's SQLite database (tables ${shownTables(tables)}): it holds no AskLoop transcript, so no sessions to read; give ${name} an AskLoop sessions file` }, dbPath);
  }
  try {
    // Read-only: listing never creates, migrates or locks the file for writing while a run uses it.
    return createSqliteTranscriptStore(dbPath, { readOnly: true });
  } catch (error) {
    // A SQLite file with no table of AskLoop's (or only the tools'): the store's words named the file again.
    if (isLoopError(error) && error.message.includes(`${dbPath} holds no AskLoop transcript`)) {
      throw CliError.fromLoopError({ code: error.code, message: `holds no AskLoop transcript, so no sessions to read; give ${name} an AskLoop sessions file` }, dbPath);
    }
    if (isLoopError(error)) {
      // A folder this user may not write: SQLite's "attempt to write a readonly database" named no fix for a reader.
      const hint = storeOpenHint(error.message, dbPath, undefined, name, reading);
      if (hint !== '') throw CliError.fromLoopError({ code: error.code, message: `${error.message}${hint}` }, dbPath);
      throw storeReadError(error, dbPath, name);
    }
    throw new CliError('CLI_FILE_UNREADABLE', `cannot open the sessions database: ${(error as Error).message}`, { file: dbPath });
  }
}
