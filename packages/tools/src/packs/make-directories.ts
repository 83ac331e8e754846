/**
 * `mkdir -p` that always ends. Node's `mkdir(path, { recursive: true })`
 * never returns, spinning a core (the synchronous form blocks the event
 * loop; the promise form holds a libuv pool thread for good), when a
 * missing directory's parent exists but the kernel answers ENOENT for the
 * child: any path under `/proc` (Linux 6, Node 24, measured). It steps back
 * to the parent on ENOENT and forward again on EEXIST, forever. These walk
 * up to the nearest existing ancestor once, then create each missing
 * directory once, without `recursive`; the first failure is thrown as the
 * system reported it (`ENOENT: no such file or directory, mkdir '/proc/x'`).
 */
import { mkdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';

const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code;

/** Whether `path` exists (as anything: creating a directory over a file then fails with EEXIST/ENOTDIR, as mkdir -p does). */
function existsSync(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return false;
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch (error) {
    if (codeOf(error) === 'ENOENT') return false;
    throw error;
  }
}

/** Creates `target` and its missing parents; resolves when it exists, rejects with the first system error. */
export async function makeDirectories(target: string): Promise<void> {
  const missing: string[] = [];
  for (let current = resolve(target); !(await exists(current)); current = dirname(current)) {
    missing.unshift(current);
    if (dirname(current) === current) break;
  }
  for (const directory of missing) {
    // EEXIST: made meanwhile by someone else, which is what was wanted when it is a directory.
    await mkdir(directory).catch(async (error: unknown) => {
      if (codeOf(error) !== 'EEXIST' || !(await stat(directory)).isDirectory()) throw error;
    });
  }
  // Already there: a directory is fine; anything else fails as mkdir -p fails (EEXIST).
  if (missing.length === 0 && !(await stat(target)).isDirectory()) await mkdir(target);
}

/** {@link makeDirectories}, synchronously (for start-up code). */
export function makeDirectoriesSync(target: string): void {
  const missing: string[] = [];
  for (let current = resolve(target); !existsSync(current); current = dirname(current)) {
    missing.unshift(current);
    if (dirname(current) === current) break;
  }
  for (const directory of missing) {
    try {
      mkdirSync(directory);
    } catch (error) {
      if (codeOf(error) !== 'EEXIST' || !statSync(directory).isDirectory()) throw error;
    }
  }
  if (missing.length === 0 && !statSync(target).isDirectory()) mkdirSync(target);
}
