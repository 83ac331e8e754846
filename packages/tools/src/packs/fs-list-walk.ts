/**
 * The directory walk behind `tool.fs.List`: `opendir` reads entries one at a
 * time, so a huge tree is never loaded whole — the walk stops with
 * `FS_TOO_LARGE` as soon as it has seen more than `maxEntries` entries.
 * Entries are classified with `lstat` semantics (dirents): a symbolic link is
 * listed as `symlink` and never followed, not even into a directory.
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
 * Lists `real` (the host path of the virtual directory `virtualBase`), sorted
 * by path. Throws `FS_TOO_LARGE` once more than `maxEntries` entries are seen.
 */
export async function listDirectory(real: string, virtualBase: string, recursive: boolean, maxEntries: number, signal?: AbortSignal): Promise<ListedEntry[]> {
  const listed: ListedEntry[] = [];
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
      if (recursive && type === 'dir') pending.push([full, virtualPath]);
    }
  }
  return listed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
