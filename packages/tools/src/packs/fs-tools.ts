/**
 * `tool.fs.*`: files under one root directory, off unless granted. Every
 * call needs a capability scoped by the virtual path (`fs:read:/data/**`,
 * `fs:write:/out/*.txt`, `fs:delete:/tmp/**`), checked by the policy before
 * the handler runs; paths are confined to the root (see fs-confine.ts).
 * The reference also requires a trusted context; here the grant is the gate.
 */
import { constants } from 'node:fs';
import { mkdir, open, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { ToolError } from '../errors/tool-error.ts';
import { defineToolPack, type ToolPack } from '../registry/tool-pack.ts';
import { defineTool } from '../spec/define-tool.ts';
import type { ToolValue } from '../spec/tool-value.ts';
import { createFsConfinement, normalizeVirtualPath } from './fs-confine.ts';

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

function fsError(error: unknown, virtualPath: string): unknown {
  const code = typeof error === 'object' && error !== null ? (error as { code?: string }).code : undefined;
  if (code === 'ENOENT') return new ToolError('FS_NOT_FOUND', `no file or directory at '${virtualPath}'`, { cause: error });
  if (code === 'EISDIR' || code === 'ENOTDIR') return new ToolError('FS_PATH_TYPE', `'${virtualPath}' is ${code === 'EISDIR' ? 'a directory' : 'not a directory'}`, { cause: error });
  if (code === 'ELOOP') return new ToolError('FS_ESCAPE', `'${virtualPath}' is a symlink; fs tools do not follow links when opening files`, { cause: error });
  if (code === 'ENOTEMPTY') return new ToolError('FS_PATH_TYPE', `directory '${virtualPath}' is not empty`, { cause: error });
  return error;
}

function entryType(entry: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): string {
  return entry.isFile() ? 'file' : entry.isDirectory() ? 'dir' : entry.isSymbolicLink() ? 'symlink' : 'other';
}

const pathArgument = (description: string) => ({ name: 'path', type: 'string', description }) as const;

/** Creates the `fs` pack, confined to `options.root`. */
export function createFileSystemTools(options: FileSystemToolsOptions): ToolPack {
  const confinement = createFsConfinement(options.root);
  const maxReadBytes = options.maxReadBytes ?? 1024 * 1024;
  const maxWriteBytes = options.maxWriteBytes ?? 1024 * 1024;
  const maxListEntries = options.maxListEntries ?? 1000;
  const scope = (verb: string, ...names: string[]) => (args: Record<string, ToolValue>) =>
    names.map((name) => ({ resource: 'fs', verbs: [verb], scopes: [normalizeVirtualPath(String(args[name]))] }));

  const guarded = async <T>(virtualPath: string, body: (real: string) => Promise<T>): Promise<T> => {
    try {
      return await body(await confinement.resolve(virtualPath));
    } catch (error) {
      throw fsError(error, normalizeVirtualPath(virtualPath));
    }
  };

  const writeFile = (virtualPath: string, content: string, flags: number) =>
    guarded(virtualPath, async (real) => {
      const bytes = Buffer.byteLength(content);
      if (bytes > maxWriteBytes) throw new ToolError('FS_TOO_LARGE', `content is ${bytes} bytes; the limit is ${maxWriteBytes}`, { argument: 'content' });
      // Create missing parents, then re-check: a link raced in would show up here.
      await mkdir(path.dirname(real), { recursive: true });
      await confinement.resolve(virtualPath);
      const handle = await open(real, flags | constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW, 0o644);
      try {
        await handle.writeFile(content, 'utf8');
      } finally {
        await handle.close();
      }
      return { path: normalizeVirtualPath(virtualPath), bytes };
    });

  return defineToolPack('fs', [
    defineTool(
      { name: 'tool.fs.Read', description: 'The UTF-8 text of a file under the fs root.', args: [{ ...pathArgument('File path, from the fs root.'), name: 'filepath' }], returns: 'string', capabilities: ['fs:read'], scopes: scope('read', 'filepath') },
      (args) =>
        guarded(args.filepath as string, async (real) => {
          const handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW);
          try {
            const info = await handle.stat();
            if (!info.isFile()) throw new ToolError('FS_PATH_TYPE', `'${normalizeVirtualPath(args.filepath as string)}' is not a file`);
            if (info.size > maxReadBytes) throw new ToolError('FS_TOO_LARGE', `file is ${info.size} bytes; the limit is ${maxReadBytes}`);
            return await handle.readFile('utf8');
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
      (args) => writeFile(args.filepath as string, args.content as string, constants.O_TRUNC),
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
      (args) => writeFile(args.filepath as string, args.content as string, constants.O_APPEND),
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
      (args) =>
        guarded(args.path as string, async (real) => {
          const base = normalizeVirtualPath(args.path as string);
          const entries = await readdir(real, { withFileTypes: true, recursive: args.recursive === true });
          if (entries.length > maxListEntries) throw new ToolError('FS_TOO_LARGE', `directory has ${entries.length} entries; the limit is ${maxListEntries}`);
          const listed = await Promise.all(
            entries.map(async (entry) => {
              const full = path.join(entry.parentPath, entry.name);
              const relative = path.relative(real, full).split(path.sep).join('/');
              const size = entry.isFile() ? (await stat(full)).size : 0;
              return { name: entry.name, path: base === '/' ? `/${relative}` : `${base}/${relative}`, type: entryType(entry), size };
            }),
          );
          return listed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
        }),
    ),
    defineTool(
      { name: 'tool.fs.Stat', description: 'Facts about a path: {"path", "type", "size", "modified"}, or nil when absent.', args: [pathArgument('Path, from the fs root.')], returns: 'map', capabilities: ['fs:read'], scopes: scope('read', 'path') },
      (args) =>
        guarded(args.path as string, async (real) => {
          const info = await stat(real).catch((error: unknown) => {
            if ((error as { code?: string }).code === 'ENOENT') return undefined;
            throw error;
          });
          if (info === undefined) return null;
          return { path: normalizeVirtualPath(args.path as string), type: entryType(info), size: info.size, modified: info.mtime.toISOString() };
        }),
    ),
    defineTool(
      { name: 'tool.fs.Mkdir', description: 'Creates a directory and its parents: {"path"}.', args: [pathArgument('Directory path, from the fs root.')], returns: 'map', capabilities: ['fs:write'], scopes: scope('write', 'path'), effect: 'write', idempotent: true },
      (args) =>
        guarded(args.path as string, async (real) => {
          await mkdir(real, { recursive: true });
          // A link raced in between resolve and mkdir would show up here.
          await confinement.resolve(args.path as string);
          return { path: normalizeVirtualPath(args.path as string) };
        }),
    ),
    defineTool(
      { name: 'tool.fs.Delete', description: 'Deletes a file or an empty directory: true.', args: [pathArgument('Path, from the fs root.')], returns: 'bool', capabilities: ['fs:delete'], scopes: scope('delete', 'path'), effect: 'write', idempotent: false },
      (args) =>
        guarded(args.path as string, async (real) => {
          if (real === (await confinement.rootReal())) throw new ToolError('FS_PATH_TYPE', 'the fs root itself cannot be deleted');
          const info = await stat(real);
          if (info.isDirectory()) await rmdir(real);
          else await rm(real);
          return true;
        }),
    ),
    defineTool(
      {
        name: 'tool.fs.Move',
        description: 'Moves or renames a file or directory: {"path"} of the destination.',
        args: [
          { name: 'source_path', type: 'string', description: 'Existing path.' },
          { name: 'destination_path', type: 'string', description: 'New path; must not exist.' },
        ],
        returns: 'map',
        capabilities: ['fs:write'],
        scopes: scope('write', 'source_path', 'destination_path'),
        effect: 'write',
        idempotent: false,
      },
      (args) =>
        guarded(args.source_path as string, async (source) => {
          const destination = await confinement.resolve(args.destination_path as string);
          const exists = await stat(destination).then(() => true, () => false);
          if (exists) throw new ToolError('FS_EXISTS', `destination '${normalizeVirtualPath(args.destination_path as string)}' already exists`);
          await rename(source, destination);
          return { path: normalizeVirtualPath(args.destination_path as string) };
        }),
    ),
  ]);
}
