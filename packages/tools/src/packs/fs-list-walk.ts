/**
 * The directory walk behind `tool.fs.List`: `opendir` reads entries one at a
 * time, so a huge tree is never loaded whole — the walk stops with
 * `FS_TOO_LARGE` as soon as it has seen more than `maxEntries` entries.
 * Entries are classified with `lstat` semantics (dirents): a symbolic link is
 * listed as `symlink` and never followed, not even into a directory.
 * `tool.fs.Move` walks a directory it moves with the same {@link walkEntries}.
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

/** One entry a walk yields: a listed entry and its host path. */
export interface WalkedEntry extends ListedEntry {
  /** The host path (never shown to a script). */
  readonly full: string;
}

/** Options of {@link walkEntries}. */
export interface WalkOptions {
  /** Enter subdirectories. Default false. */
  readonly recursive?: boolean;
  readonly signal?: AbortSignal | undefined;
  /** Whether to enter a subdirectory (its virtual path), asked after it is yielded. Default: always. */
  readonly enter?: (virtualDirectory: string) => boolean;
  /** `lstat` each file for its size; without it sizes are 0 (a walk that needs no sizes saves a system call per file). Default true. */
  readonly sizes?: boolean;
}

/**
 * Every entry under `real` (the host path of the virtual directory
 * `virtualBase`), one at a time, in the order the OS lists them. When
 * recursive, each subdirectory is entered after it is yielded, if `enter`
 * says yes. Links are yielded as `symlink` and never followed. Nothing is
 * collected: the caller decides what to keep.
 */
export async function* walkEntries(real: string, virtualBase: string, options: WalkOptions = {}): AsyncGenerator<WalkedEntry> {
  const { recursive = false, signal, enter = () => true, sizes = true } = options;
  const pending: [string, string][] = [[real, virtualBase === '/' ? '' : virtualBase]];
  while (pending.length > 0) {
    const [directory, virtualDirectory] = pending.pop() as [string, string];
    // The async iterator closes the directory when the loop ends or throws.
    for await (const entry of await opendir(directory)) {
      signal?.throwIfAborted();
      const full = path.join(directory, entry.name);
      const virtualPath = `${virtualDirectory}/${entry.name}`;
      const type = entryType(entry);
      const size = type === 'file' && sizes ? (await lstat(full)).size : 0;
      yield { name: entry.name, path: virtualPath, type, size, full };
      if (recursive && type === 'dir' && enter(virtualPath)) pending.push([full, virtualPath]);
    }
  }
}

/** Sorts by virtual path (byte order of the UTF-16 code units, as `<` compares). */
export const byPath = (a: { readonly path: string }, b: { readonly path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

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
  const refused: { path: string; error: ToolError }[] = [];
  const enter = (virtualDirectory: string): boolean => {
    const refusal = refuse?.(virtualDirectory);
    if (refusal !== undefined) refused.push({ path: virtualDirectory, error: refusal });
    return refusal === undefined;
  };
  for await (const entry of walkEntries(real, virtualBase, { recursive, signal, enter })) {
    if (listed.length >= maxEntries) throw new ToolError('FS_TOO_LARGE', `directory '${virtualBase}' has more than ${maxEntries} entries${recursive ? ' (counting subdirectories)' : ''}; the limit is ${maxEntries}`);
    listed.push({ name: entry.name, path: entry.path, type: entry.type, size: entry.size });
  }
  const first = refused.sort(byPath)[0];
  if (first !== undefined) throw first.error;
  return listed.sort(byPath);
}
