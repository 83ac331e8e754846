/**
 * `mkdir -p` that always ends. Node's `mkdir(path, { recursive: true })`
 * never returns, spinning a core (the synchronous form blocks the event
 * loop; the promise form holds a libuv pool thread for good), when a
 * missing directory's parent exists but the kernel answers ENOENT for the
 * child: any path under `/proc` (Linux 6, Node 24, measured). It steps back
 * to the parent on ENOENT and forward again on EEXIST, forever. These walk
 * up to the nearest entry that exists (read with `lstat`, so a dangling
 * link counts as one) once, then create each missing directory once,
 * without `recursive`. The first failure is the system's own error, as
 * `mkdir -p` reports it: from `mkdir` (`ENOENT: no such file or directory,
 * mkdir '/proc/x'`; EEXIST over a file or a dangling link; ENOTDIR under a
 * file; EACCES, EPERM), or from `lstat` on the way up (ELOOP, ENAMETOOLONG,
 * EACCES on a folder that cannot be searched).
 */
import { lstatSync, mkdirSync, statSync } from 'node:fs';
import { lstat, mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { errnoCode } from './errno-code.ts';

const MISSING: ReadonlySet<string | undefined> = new Set(['ENOENT', 'ENOTDIR']);

/**
 * Whether anything is at `path` (a link, even a dangling one, counts). ENOENT
 * and ENOTDIR (a file along the way) mean no: the walk goes on up, and the
 * `mkdir` below that file then fails as mkdir -p does. Other errors are thrown.
 */
function entryExistsSync(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch (error) {
    if (MISSING.has(errnoCode(error))) return false;
    throw error;
  }
}

/** {@link entryExistsSync}, asynchronously. */
async function entryExists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch (error) {
    if (MISSING.has(errnoCode(error))) return false;
    throw error;
  }
}

/** Whether `path` leads to a directory now (following links); false when it cannot be read. */
const isDirectorySync = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;

/** {@link isDirectorySync}, asynchronously. */
async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}

/** Creates `target` and its missing parents; resolves when it is a directory, rejects with the first `mkdir` error. */
export async function makeDirectories(target: string): Promise<void> {
  const missing: string[] = [];
  let current = resolve(target);
  while (!(await entryExists(current))) {
    missing.unshift(current);
    if (dirname(current) === current) break;
    current = dirname(current);
  }
  // Already there: `mkdir` itself says what is wrong when it is no directory (EEXIST), as mkdir -p does.
  for (const directory of missing.length === 0 ? [resolve(target)] : missing) {
    try {
      await mkdir(directory);
    } catch (error) {
      // EEXIST for a directory: made meanwhile by someone else, or there from the start, which is what was wanted.
      if (errnoCode(error) !== 'EEXIST' || !(await isDirectory(directory))) throw error;
    }
  }
}

/** {@link makeDirectories}, synchronously (for start-up code). */
export function makeDirectoriesSync(target: string): void {
  const missing: string[] = [];
  let current = resolve(target);
  while (!entryExistsSync(current)) {
    missing.unshift(current);
    if (dirname(current) === current) break;
    current = dirname(current);
  }
  for (const directory of missing.length === 0 ? [resolve(target)] : missing) {
    try {
      mkdirSync(directory);
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST' || !isDirectorySync(directory)) throw error;
    }
  }
}
