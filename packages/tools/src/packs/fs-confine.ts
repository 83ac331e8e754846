/**
 * Confinement of `tool.fs.*` to one root directory. Script paths are virtual,
 * absolute from the root (`/data/x.txt`, or `data/x.txt`); `..` segments are
 * refused outright, and real paths are resolved with `realpath` so a symlink
 * that leads outside the root is refused too (`FS_ESCAPE`). The last line of
 * defence against a link swapped in after the check is `O_NOFOLLOW` when the
 * file is opened.
 */
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../errors/tool-error.ts';

/** The virtual form of a script path: `/` plus its segments, without `.` and empty segments. Throws `FS_ESCAPE` for `..` or NUL. */
export function normalizeVirtualPath(input: string): string {
  if (input.includes('\0')) throw new ToolError('FS_ESCAPE', `path contains a NUL byte`, { argument: 'path' });
  const segments = input.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw new ToolError('FS_ESCAPE', `path '${input}' contains '..'; paths must stay inside the fs root`, { argument: 'path' });
  return `/${segments.join('/')}`;
}

function isInside(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? ((error as { code?: string }).code ?? undefined) : undefined;
}

/** Resolves script paths under one root. */
export interface FsConfinement {
  /** The real path of the root. */
  rootReal(): Promise<string>;
  /**
   * The real host path for a virtual path. Every existing ancestor (and the
   * target, when it exists) is resolved through symlinks and must stay inside
   * the root; a dangling symlink is refused.
   */
  resolve(virtualPath: string): Promise<string>;
}

/** Creates the confinement for `root` (which must exist). */
export function createFsConfinement(root: string): FsConfinement {
  let cachedRoot: Promise<string> | undefined;
  const rootReal = (): Promise<string> => {
    cachedRoot ??= realpath(root).catch((error: unknown) => {
      cachedRoot = undefined;
      throw new ToolError('FS_NOT_FOUND', `fs root '${root}' does not exist`, { cause: error });
    });
    return cachedRoot;
  };
  return {
    rootReal,
    async resolve(virtualPath) {
      const base = await rootReal();
      const segments = normalizeVirtualPath(virtualPath).split('/').filter((segment) => segment !== '');
      // Find the deepest existing prefix, resolve it, and append the rest.
      for (let depth = segments.length; depth >= 0; depth -= 1) {
        const candidate = path.join(base, ...segments.slice(0, depth));
        let real: string;
        try {
          real = await realpath(candidate);
        } catch (error) {
          if (errorCode(error) !== 'ENOENT') throw error;
          const link = await lstat(candidate).catch(() => undefined);
          if (link?.isSymbolicLink() === true) throw new ToolError('FS_ESCAPE', `path '${virtualPath}' goes through a dangling symlink`, { argument: 'path' });
          continue;
        }
        if (!isInside(base, real)) throw new ToolError('FS_ESCAPE', `path '${virtualPath}' resolves outside the fs root through a symlink`, { argument: 'path' });
        return path.join(real, ...segments.slice(depth));
      }
      return base;
    },
  };
}
