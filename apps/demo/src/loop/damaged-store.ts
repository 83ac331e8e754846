/**
 * A sessions file SQLite cannot read as a database: pages written over, a
 * file cut short (a crash, a copy taken while a run wrote it), or no database
 * at all. SQLite says only "database disk image is malformed" or "file is not
 * a database", and the store adds the method that met it ("failed in
 * listSessions: …"), on opening or on any read after it: neither says what
 * to do. The commands that read sessions (`sessions`, `show`, `view`,
 * `resume`, `approve`, `deny`, `replay`) say it is damaged, and the fix.
 */
import { isLoopError } from '@askloop/controller';
import { CliError } from '../cli-error.ts';

/** SQLite's primary result codes for a file that is not (or no longer) a whole database. */
const SQLITE_CORRUPT = 11;
const SQLITE_NOTADB = 26;
const DAMAGED_WORDS = /database disk image is malformed|file is not a database/;

/** The SQLite error under `error` (its cause chain), when SQLite found the file damaged. */
function damagedCause(error: unknown): Error | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const errcode = (current as { errcode?: unknown }).errcode;
    // The extended codes (SQLITE_CORRUPT_VTAB, …) keep the primary one in their low byte.
    if (typeof errcode === 'number' && [SQLITE_CORRUPT, SQLITE_NOTADB].includes(errcode & 0xff)) return current;
    current = current.cause;
  }
  // A store that kept no cause still says it in SQLite's words.
  return error instanceof Error && DAMAGED_WORDS.test(error.message) ? error : undefined;
}

/** Whether `error` (a store's, or SQLite's own) says the sessions file is damaged. */
export function isDamagedStore(error: unknown): boolean {
  return damagedCause(error) !== undefined;
}

/**
 * The message for a damaged sessions file, after its path: SQLite's words,
 * and what to do. `name` gave the file (`--db`, or the config's `store.path`).
 * A file that is no database at all may as well be the wrong file as a sessions
 * file written over: both are said.
 */
export function damagedStoreMessage(error: unknown, name = '--db'): string {
  const words = DAMAGED_WORDS.exec((damagedCause(error) ?? (error as Error)).message)?.[0] ?? 'database disk image is malformed';
  if (words === 'file is not a database') return `not a sessions file (SQLite: ${words}): give ${name} an AskLoop sessions file, or restore this one from a backup if it was one`;
  return `the sessions file is damaged and cannot be read (SQLite: ${words}); restore it from a backup, or give ${name} another sessions file (sqlite3 FILE .recover may save what it still holds)`;
}

/**
 * `error` of a read of the sessions file `file` as the CLI's error: a damaged
 * file in the words above, any other store error (`LOOP_…`) with its code, as
 * a failure to open the file is. Anything else is returned as it is.
 */
export function storeReadError(error: unknown, file: string | undefined, name = '--db'): unknown {
  if (!isLoopError(error)) return error;
  if (file !== undefined && isDamagedStore(error)) return CliError.fromLoopError({ code: error.code, message: damagedStoreMessage(error, name) }, file);
  return CliError.fromLoopError(error, file);
}
