/**
 * `tool.fs.*`: files under one root directory, off unless granted. Every
 * call needs a capability scoped by the virtual path (`fs:read:/data/**`,
 * `fs:write:/out/*.txt`, `fs:delete:/tmp/**`), checked by the policy before
 * the handler runs; paths are confined to the root (see fs-confine.ts).
 * The reference also requires a trusted context; here the grant is the gate.
 */
import { constants } from 'node:fs';
import { lstat, open, rename, rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { ToolError, detailsOf, isToolError } from '../errors/tool-error.ts';
import { defineToolPack, type ToolPack } from '../registry/tool-pack.ts';
import { defineTool } from '../spec/define-tool.ts';
import type { ToolValue } from '../spec/tool-value.ts';
import { createFsConfinement, normalizeVirtualPath } from './fs-confine.ts';
import { fsError } from './fs-error.ts';
import { entryType, listDirectory } from './fs-list-walk.ts';
import { refuseDirectoryMove } from './fs-move-grants.ts';
import { errnoCode } from '../fs/errno-code.ts';
import { makeDirectories } from '../fs/make-directories.ts';
import { readAtMost } from '../fs/read-at-most.ts';
import { checkPackOptions, count, other } from './pack-options.ts';

/** Options of {@link createFileSystemTools}. */
export interface FileSystemToolsOptions {
  /** The directory scripts see as `/`. Must exist. */
  readonly root: string;
  /** Largest file Read returns, in bytes. Default 1 MiB. */
  readonly maxReadBytes?: number;
  /** Largest content Write/Append accepts, in bytes. Default 1 MiB. */
  readonly maxWriteBytes?: number;
  /** Most entries List returns. Default 1000. */
  readonly maxListEntries?: number;
}

const pathArgument = (description: string) => ({ name: 'path', type: 'string', description }) as const;

/**
 * Refuses options that would be ignored or lift a bound (`TOOL_SPEC_INVALID`): a misspelt field, a root that is not
 * a non-empty string (it failed each call as "the fs root '/' is not available"), and a limit that is not a whole
 * number >= 0 (`'1mb'` compared false with every size, so nothing was too large).
 */
function checkFileSystemOptions(options: FileSystemToolsOptions): void {
  checkPackOptions('createFileSystemTools', options, { root: other, maxReadBytes: count(), maxWriteBytes: count(), maxListEntries: count() });
  if (typeof options.root !== 'string' || options.root === '') {
    throw new ToolError('TOOL_SPEC_INVALID', `createFileSystemTools(): root must be the path of an existing directory, got ${JSON.stringify(options.root) ?? String(options.root)}`);
  }
}

/** Creates the `fs` pack, confined to `options.root`. Throws `TOOL_SPEC_INVALID` for malformed options. */
export function createFileSystemTools(options: FileSystemToolsOptions): ToolPack {
  checkFileSystemOptions(options);
  const confinement = createFsConfinement(options.root);
  const maxReadBytes = options.maxReadBytes ?? 1024 * 1024;
  const maxWriteBytes = options.maxWriteBytes ?? 1024 * 1024;
  const maxListEntries = options.maxListEntries ?? 1000;
  const scope = (verb: string, ...names: string[]) => (args: Record<string, ToolValue>) =>
    names.map((name) => ({ resource: 'fs', verbs: [verb], scopes: [normalizeVirtualPath(String(args[name]), name)] }));

  // Every fs call checks the signal before and after resolving, and passes it to reads and writes, so a cancelled run stops its I/O.
  // `argument` is the tool's argument holding the path, named in errors.
  const guarded = async <T>(signal: AbortSignal, argument: string, virtualPath: string, body: (real: string) => Promise<T>, finalLinkAllowed = false): Promise<T> => {
    try {
      signal.throwIfAborted();
      const real = await confinement.resolve(virtualPath, { finalLinkAllowed, argument });
      signal.throwIfAborted();
      return await body(real);
    } catch (error) {
      throw fsError(error, normalizeVirtualPath(virtualPath, argument), argument);
    }
  };

  /** A FIFO, socket or device where a regular file was expected: refused before any blocking read or write. */
  const notRegular = (virtualPath: string, cause?: unknown): ToolError =>
    new ToolError('FS_PATH_TYPE', `'${normalizeVirtualPath(virtualPath)}' is not a regular file`, cause === undefined ? undefined : { cause });

  const writeFile = (signal: AbortSignal, virtualPath: string, content: string, flags: number) =>
    guarded(signal, 'filepath', virtualPath, async (real) => {
      const bytes = Buffer.byteLength(content);
      if (bytes > maxWriteBytes) throw new ToolError('FS_TOO_LARGE', `content is ${bytes} bytes; the limit is ${maxWriteBytes}`, { argument: 'content' });
      // Create missing parents, then re-check: a link raced in would show up here.
      await makeDirectories(path.dirname(real));
      await confinement.resolve(virtualPath, { argument: 'filepath' });
      // O_NONBLOCK: opening a FIFO would otherwise wait for a reader in a libuv thread that no signal can free.
      const handle = await open(real, flags | constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK, 0o644).catch((error: unknown) => {
        if (errnoCode(error) === 'ENXIO') throw notRegular(virtualPath, error);
        throw error;
      });
      try {
        if (!(await handle.stat()).isFile()) throw notRegular(virtualPath);
        await handle.writeFile(content, { encoding: 'utf8', signal });
      } finally {
        await handle.close();
      }
      return { path: normalizeVirtualPath(virtualPath), bytes };
    });

  return defineToolPack('fs', [
    defineTool(
      { name: 'tool.fs.Read', description: 'The UTF-8 text of a file under the fs root.', args: [{ ...pathArgument('File path, from the fs root.'), name: 'filepath' }], returns: 'string', capabilities: ['fs:read'], scopes: scope('read', 'filepath') },
      (args, context) =>
        guarded(context.signal, 'filepath', args.filepath as string, async (real) => {
          // O_NONBLOCK: a FIFO (or a device) would otherwise block the open in a libuv thread that no signal can free,
          // keeping the process alive after its run and, four at a time, stalling every fs call of the host.
          // A socket cannot be opened at all (ENXIO): it is no regular file either, as for Write.
          const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch((error: unknown) => {
            if (errnoCode(error) === 'ENXIO') throw notRegular(args.filepath as string, error);
            throw error;
          });
          try {
            const info = await handle.stat();
            if (!info.isFile()) throw new ToolError('FS_PATH_TYPE', `'${normalizeVirtualPath(args.filepath as string)}' is not a file`);
            if (info.size > maxReadBytes) throw new ToolError('FS_TOO_LARGE', `file is ${info.size} bytes; the limit is ${maxReadBytes}`);
            // The size may be wrong (0 for a file the kernel makes up as it is read) or grow meanwhile: read at most the limit.
            const bytes = await readAtMost(handle, maxReadBytes, info.size, context.signal);
            if (bytes === undefined) throw new ToolError('FS_TOO_LARGE', `file has more than ${maxReadBytes} bytes (its size read ${info.size} when opened); the limit is ${maxReadBytes}`);
            return bytes.toString('utf8');
          } finally {
            await handle.close();
          }
        }),
    ),
    defineTool(
      {
        name: 'tool.fs.Write',
        description: 'Writes text to a file, replacing it and creating missing directories: {"path", "bytes"}.',
        args: [{ ...pathArgument('File path, from the fs root.'), name: 'filepath' }, { name: 'content', type: 'string', description: 'Text to write.' }],
        returns: 'map',
        capabilities: ['fs:write'],
        scopes: scope('write', 'filepath'),
        effect: 'write',
        idempotent: true,
      },
      (args, context) => writeFile(context.signal, args.filepath as string, args.content as string, constants.O_TRUNC),
    ),
    defineTool(
      {
        name: 'tool.fs.Append',
        description: 'Appends text to a file, creating it: {"path", "bytes"}.',
        args: [{ ...pathArgument('File path, from the fs root.'), name: 'filepath' }, { name: 'content', type: 'string', description: 'Text to append.' }],
        returns: 'map',
        capabilities: ['fs:write'],
        scopes: scope('write', 'filepath'),
        effect: 'write',
        idempotent: false,
      },
      (args, context) => writeFile(context.signal, args.filepath as string, args.content as string, constants.O_APPEND),
    ),
    defineTool(
      {
        name: 'tool.fs.List',
        description: 'Entries of a directory: [{"name", "path", "type", "size"}], sorted by path.',
        args: [pathArgument('Directory path, from the fs root.'), { name: 'recursive', type: 'bool', default: false, description: 'Include subdirectories.' }],
        returns: 'list',
        capabilities: ['fs:read'],
        scopes: scope('read', 'path'),
      },
      (args, context) =>
        guarded(context.signal, 'path', args.path as string, async (real) => {
          const base = normalizeVirtualPath(args.path as string);
          const info = await lstat(real);
          if (!info.isDirectory()) throw new ToolError('FS_PATH_TYPE', `'${base}' is not a directory`);
          // The grant checked before the call covers the listed directory only; each subdirectory the walk enters needs its own.
          const refuse = (directory: string): ToolError | undefined => {
            try {
              context.authorize({ resource: 'fs', verbs: ['read'], scopes: [directory] });
              return undefined;
            } catch (error) {
              if (!isToolError(error)) throw error;
              const advice = `a recursive List of '${base}' enters '${directory}'; to see '${base}' alone, list it without recursive`;
              return new ToolError(error.code, `${error.message} (${advice})`, { ...detailsOf(error), argument: 'recursive' });
            }
          };
          return listDirectory(real, base, args.recursive === true, maxListEntries, context.signal, refuse) as unknown as ToolValue;
        }),
    ),
    defineTool(
      {
        name: 'tool.fs.Stat',
        description: 'Facts about a path: {"path", "type", "size", "modified"}, or nil when absent; a symbolic link is reported as type "symlink" (size 0) and not followed.',
        args: [pathArgument('Path, from the fs root.')],
        returns: 'map',
        capabilities: ['fs:read'],
        scopes: scope('read', 'path'),
      },
      (args, context) =>
        guarded(
          context.signal,
          'path',
          args.path as string,
          async (real) => {
            // lstat: the last segment may be a link, reported as such; links earlier in the path were refused.
            const info = await lstat(real).catch((error: unknown) => {
              if ((error as { code?: string }).code === 'ENOENT') return undefined;
              throw error;
            });
            if (info === undefined) return null;
            const type = entryType(info);
            return { path: normalizeVirtualPath(args.path as string), type, size: type === 'symlink' ? 0 : info.size, modified: info.mtime.toISOString() };
          },
          true,
        ),
    ),
    defineTool(
      { name: 'tool.fs.Mkdir', description: 'Creates a directory and its parents: {"path"}.', args: [pathArgument('Directory path, from the fs root.')], returns: 'map', capabilities: ['fs:write'], scopes: scope('write', 'path'), effect: 'write', idempotent: true },
      (args, context) =>
        guarded(context.signal, 'path', args.path as string, async (real) => {
          await makeDirectories(real);
          // A link raced in between resolve and mkdir would show up here.
          await confinement.resolve(args.path as string);
          return { path: normalizeVirtualPath(args.path as string) };
        }),
    ),
    defineTool(
      { name: 'tool.fs.Delete', description: 'Deletes a file or an empty directory: true.', args: [pathArgument('Path, from the fs root.')], returns: 'bool', capabilities: ['fs:delete'], scopes: scope('delete', 'path'), effect: 'write', idempotent: false },
      (args, context) =>
        guarded(context.signal, 'path', args.path as string, async (real) => {
          if (real === (await confinement.rootReal())) throw new ToolError('FS_PATH_TYPE', 'the fs root itself cannot be deleted');
          const info = await lstat(real);
          if (info.isDirectory()) await rmdir(real);
          else await rm(real);
          return true;
        }),
    ),
    defineTool(
      {
        name: 'tool.fs.Move',
        description: 'Moves or renames a file or directory: {"path"} of the destination. Needs fs:read and fs:delete on the source, fs:write on the destination (for a directory, on everything under them too).',
        args: [
          { name: 'source_path', type: 'string', description: 'Existing path.' },
          { name: 'destination_path', type: 'string', description: 'New path; must not exist.' },
        ],
        returns: 'map',
        // A move reads the source (its content reaches the destination, where it may be readable) and removes it:
        // with fs:write alone a program could carry a file it may not read into a folder it may, or remove one Delete may not.
        capabilities: ['fs:read', 'fs:delete', 'fs:write'],
        scopes: (args) => [...scope('read', 'source_path')(args), ...scope('delete', 'source_path')(args), ...scope('write', 'destination_path')(args)],
        effect: 'write',
        idempotent: false,
      },
      async (args, context) => {
        context.signal.throwIfAborted();
        const sourcePath = normalizeVirtualPath(args.source_path as string, 'source_path');
        const destinationPath = normalizeVirtualPath(args.destination_path as string, 'destination_path');
        let failing = sourcePath;
        let argument: string | undefined = 'source_path';
        try {
          // Both ends are checked for links; rename() itself never follows the last segment of either.
          const source = await confinement.resolve(sourcePath, { argument });
          // Moving the root would move it into itself (EINVAL), after walking all of it below.
          if (sourcePath === '/') throw new ToolError('FS_PATH_TYPE', 'the fs root itself cannot be moved', { argument });
          const sourceInfo = await lstat(source);
          failing = destinationPath;
          argument = 'destination_path';
          const destination = await confinement.resolve(destinationPath, { argument });
          const exists = await lstat(destination).then(() => true, () => false);
          if (exists) throw new ToolError('FS_EXISTS', `destination '${destinationPath}' already exists`, { argument });
          // rename() reports a missing destination folder as ENOENT, which would read as a missing source: check it first.
          // (A folder that is a file was refused by resolve, as ENOTDIR on the destination.)
          const folder = path.posix.dirname(destinationPath);
          const parent = await lstat(path.dirname(destination)).catch((error: unknown) => {
            if ((error as { code?: unknown }).code === 'ENOENT') return undefined;
            throw error;
          });
          if (parent === undefined) {
            throw new ToolError('FS_NOT_FOUND', `destination folder '${folder}' does not exist; create it with tool.fs.Mkdir("${folder}") first, or move to an existing folder`, { argument });
          }
          if (sourceInfo.isDirectory()) {
            // The named paths' grants were checked before the call; a directory carries everything under it too.
            failing = sourcePath;
            argument = 'source_path';
            const refusal = await refuseDirectoryMove(source, sourcePath, destinationPath, context.signal, context.authorize);
            if (refusal !== undefined) throw refusal;
          }
          failing = `${sourcePath}' → '${destinationPath}`;
          argument = undefined;
          await rename(source, destination);
          return { path: destinationPath };
        } catch (error) {
          throw fsError(error, failing, argument);
        }
      },
    ),
  ]);
}
