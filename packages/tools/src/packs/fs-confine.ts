/**
 * Confinement of `tool.fs.*` to one root directory. Script paths are virtual,
 * absolute from the root (`/data/x.txt`, or `data/x.txt`); `..` segments,
 * NUL bytes and backslashes are refused outright. fs tools never follow a
 * symbolic link: every existing segment of the path is `lstat`ed from the
 * root down, and a link anywhere along it is `FS_ESCAPE` — even one that
 * points inside the root, because grants are checked against the path as
 * written and a link would let a tool act on a path no grant covers. The last
 * line of defence against a link swapped in after the check is `O_NOFOLLOW`
 * when a file is opened, and a re-check after directories are created.
 */
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../errors/tool-error.ts';

/**
 * The virtual form of a script path: `/` plus its segments, without `.` and
 * empty segments. Throws `FS_ESCAPE` for `..`, NUL or a backslash (which
 * Windows would read as a separator), naming `argument` — the tool's argument
 * that held the path (`filepath`, `source_path`, …), so the script knows which.
 */
export function normalizeVirtualPath(input: string, argument = 'path'): string {
  if (input.includes('\0')) throw new ToolError('FS_ESCAPE', `${argument} contains a NUL byte`, { argument });
  if (input.includes('\\')) throw new ToolError('FS_ESCAPE', `${argument} '${input}' contains a backslash; separate segments with '/'`, { argument });
  const segments = input.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..')) throw new ToolError('FS_ESCAPE', `${argument} '${input}' contains '..'; paths must stay inside the fs root`, { argument });
  return `/${segments.join('/')}`;
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? ((error as { code?: string }).code ?? undefined) : undefined;
}

/** Options of {@link FsConfinement.resolve}. */
export interface ResolveOptions {
  /** Accept a link as the last segment (the caller `lstat`s it and never follows it). Default false. */
  readonly finalLinkAllowed?: boolean;
  /** The tool's argument that holds the path, named in errors. Default `path`. */
  readonly argument?: string;
}

/** Resolves script paths under one root. */
export interface FsConfinement {
  /** The real path of the root. */
  rootReal(): Promise<string>;
  /**
   * The host path for a virtual path: the real root joined with the
   * segments. Every existing segment is checked with `lstat`; a symbolic link
   * anywhere is `FS_ESCAPE` (unless it is the last segment and
   * `finalLinkAllowed`). Missing segments are fine (the caller may create them).
   */
  resolve(virtualPath: string, options?: ResolveOptions): Promise<string>;
}

/** Creates the confinement for `root` (which must exist). */
export function createFsConfinement(root: string): FsConfinement {
  let cachedRoot: Promise<string> | undefined;
  const rootReal = (): Promise<string> => {
    cachedRoot ??= realpath(root).catch((error: unknown) => {
      cachedRoot = undefined;
      // The host path stays in `cause` for the operator; the script sees only its virtual root.
      throw new ToolError('FS_FAILED', "the fs root '/' is not available (the host's directory for it is missing or unreadable)", { cause: error });
    });
    return cachedRoot;
  };
  return {
    rootReal,
    async resolve(virtualPath, options = {}) {
      const base = await rootReal();
      const argument = options.argument ?? 'path';
      const normalized = normalizeVirtualPath(virtualPath, argument);
      const segments = normalized.split('/').filter((segment) => segment !== '');
      for (let depth = 1; depth <= segments.length; depth += 1) {
        const candidate = path.join(base, ...segments.slice(0, depth));
        let info;
        try {
          info = await lstat(candidate);
        } catch (error) {
          // Nothing exists below a missing segment, so no link can be there.
          if (errorCode(error) === 'ENOENT') break;
          throw error;
        }
        if (info.isSymbolicLink() && !(depth === segments.length && options.finalLinkAllowed === true)) {
          const linkPath = `/${segments.slice(0, depth).join('/')}`;
          const where = linkPath === normalized ? `${argument} '${normalized}'` : `'${linkPath}' (in ${argument} '${normalized}')`;
          throw new ToolError('FS_ESCAPE', `${where} is a symbolic link; fs tools do not follow links`, { argument });
        }
      }
      return path.join(base, ...segments);
    },
  };
}
