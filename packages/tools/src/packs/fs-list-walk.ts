/**
 * The directory walk behind `tool.fs.List`: `opendir` reads entries one at a
 * time, so a huge tree is never loaded whole — the walk stops with
 * `FS_TOO_LARGE` as soon as it has seen more than `maxEntries` entries.
 * Entries are classified with `lstat` semantics (dirents): a symbolic link is
 * listed as `symlink` and never followed, not even into a directory.
 * A recursive walk asks `refuse` before it enters each subdirectory: a grant
 * that covers `/data` alone must not reveal what `/data/private` holds.
 */
import { lstat, opendir } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../errors/tool-error.ts';

/** One listed entry. */
export interface ListedEntry {
  readonly name: string;
  /** Virtual path from the fs root. */
  readonly path: string;
  readonly type: 'file' | 'dir' | 'symlink' | 'other';
  /** Bytes for files, 0 otherwise. */
  readonly size: number;
}

/** The type name of a dirent or lstat result. */
export function entryType(entry: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): ListedEntry['type'] {
  return entry.isSymbolicLink() ? 'symlink' : entry.isFile() ? 'file' : entry.isDirectory() ? 'dir' : 'other';
}

/**
 * Why a recursive walk may not enter a subdirectory (its virtual path), or
 * undefined when it may.
 */
export type EnterRefusal = (virtualDirectory: string) => ToolError | undefined;

/**
 * Lists `real` (the host path of the virtual directory `virtualBase`), sorted
 * by path. Throws `FS_TOO_LARGE` once more than `maxEntries` entries are seen.
 * When recursive, every subdirectory is passed to `refuse` first and not
 * entered when refused; the walk then fails with the refusal of the first
 * refused subdirectory in path order (not a partial listing, which would make
 * a refused folder look empty). Every allowed subdirectory is still walked, so
 * which error wins does not depend on the order the OS lists entries in.
 */
export async function listDirectory(real: string, virtualBase: string, recursive: boolean, maxEntries: number, signal?: AbortSignal, refuse?: EnterRefusal): Promise<ListedEntry[]> {
  const listed: ListedEntry[] = [];
  const refused: [string, ToolError][] = [];
  const pending: [string, string][] = [[real, virtualBase === '/' ? '' : virtualBase]];
  while (pending.length > 0) {
    const [directory, virtualDirectory] = pending.pop() as [string, string];
    // The async iterator closes the directory when the loop ends or throws.
    for await (const entry of await opendir(directory)) {
      signal?.throwIfAborted();
      if (listed.length >= maxEntries) throw new ToolError('FS_TOO_LARGE', `directory '${virtualBase}' has more than ${maxEntries} entries${recursive ? ' (counting subdirectories)' : ''}; the limit is ${maxEntries}`);
      const full = path.join(directory, entry.name);
      const virtualPath = `${virtualDirectory}/${entry.name}`;
      const type = entryType(entry);
      const size = type === 'file' ? (await lstat(full)).size : 0;
      listed.push({ name: entry.name, path: virtualPath, type, size });
      if (recursive && type === 'dir') {
        const refusal = refuse?.(virtualPath);
        if (refusal === undefined) pending.push([full, virtualPath]);
        else refused.push([virtualPath, refusal]);
      }
    }
  }
  const first = refused.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))[0];
  if (first !== undefined) throw first[1];
  return listed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
