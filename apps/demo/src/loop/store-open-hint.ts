/**
 * What SQLite's "unable to open database file" means for a sessions file,
 * when it can be told: SQLite names no cause, and the usual one is a folder
 * that cannot be written (a new file, its `-wal` and `-shm` files are made
 * there), or a file that cannot be.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';

/** Why this process may not write `path` (the `access` error code, e.g. EACCES or EROFS), or undefined when it may (injected in tests: root may write anything). */
export type WriteCheck = (path: string) => string | undefined;

const writeRefusal: WriteCheck = (path) => {
  try {
    accessSync(path, constants.W_OK);
    return undefined;
  } catch (error) {
    return String((error as { code?: unknown }).code ?? 'EACCES');
  }
};

/** Who refuses the write: the file system itself (read-only), or this user's permissions. */
const refuser = (code: string): string => (code === 'EROFS' ? 'the file system is read-only for' : 'this user may not write');

/**
 * The clause to add to a failed open of `dbPath` (starting with `; `), or '' when nothing more is known; `name` gave
 * the file (`--db`, `store.path`). `reading`: the open only reads the file (`sessions`, `show`, `view`, `replay`), which
 * still needs SQLite's `-wal` and `-shm` files beside it, so a copy elsewhere is the way to read it.
 */
export function storeOpenHint(message: string, dbPath: string, refusal: WriteCheck = writeRefusal, name = '--db', reading = false): string {
  if (!/unable to open database file|readonly database/.test(message)) return '';
  const folder = dirname(dbPath);
  const folderCode = refusal(folder);
  if (folderCode !== undefined && reading) {
    return `; ${refuser(folderCode)} the folder ${folder}, where SQLite makes the -wal and -shm files that reading a sessions file needs too: copy the file to a folder you can write and give ${name} the copy, or ask for write access to the folder`;
  }
  if (folderCode !== undefined) return `; ${refuser(folderCode)} the folder ${folder} (SQLite makes the file and its -wal and -shm files there): give ${name} a file in a folder you can write`;
  const fileCode = existsSync(dbPath) ? refusal(dbPath) : undefined;
  if (fileCode !== undefined) return `; ${refuser(fileCode)} the file: give ${name} a file you can write`;
  return '';
}
