/**
 * What SQLite's "unable to open database file" means for a sessions file,
 * when it can be told: SQLite names no cause, and the usual one is a folder
 * this user may not write (a new file, its `-wal` and `-shm` files are made
 * there), or a file this user may not write.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';

/** Whether this process may write `path` (injected in tests: root may write anything). */
export type WriteCheck = (path: string) => boolean;

const mayWrite: WriteCheck = (path) => {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
};

/** The clause to add to a failed open of `dbPath` (starting with `; `), or '' when nothing more is known. */
export function storeOpenHint(message: string, dbPath: string, canWrite: WriteCheck = mayWrite): string {
  if (!/unable to open database file|readonly database/.test(message)) return '';
  const folder = dirname(dbPath);
  if (!canWrite(folder)) return `; this user may not write the folder ${folder} (SQLite makes the file and its -wal and -shm files there): give --db a file in a folder you can write`;
  if (existsSync(dbPath) && !canWrite(dbPath)) return `; this user may not write the file: give --db a file you can write`;
  return '';
}
