/**
 * Turns what `node:fs` threw into a `ToolError` a script may see. Node's
 * messages carry the real host path (`ENAMETOOLONG: name too long, realpath
 * '/srv/agent/out/…'`), which must not reach the script, so every error with
 * an errno `code` gets a message naming only the virtual path(s) and the
 * errno; the original is kept as `cause`, which `ToolError.toJSON()` and
 * `wrapToolFailure` never copy into what the script sees.
 */
import { ToolError, isToolError } from '../errors/tool-error.ts';
import { errnoCode } from '../fs/errno-code.ts';

/**
 * The `ToolError` for a failure of an fs operation on `virtualPath` (a
 * script path, already normalised; for Move `'/a' → '/b'`). `ToolError`s pass
 * through; errors without an errno code are returned unchanged (the host
 * wraps them as `TOOL_FAILED`). `argument` names the tool's argument that
 * held the path, when one did.
 */
export function fsError(error: unknown, virtualPath: string, argument?: string): unknown {
  if (isToolError(error)) return error;
  const code = errnoCode(error);
  if (code === undefined) return error;
  const details = argument === undefined ? { cause: error } : { cause: error, argument };
  switch (code) {
    case 'ENOENT':
      return new ToolError('FS_NOT_FOUND', `no file or directory at '${virtualPath}'`, details);
    case 'EISDIR':
      return new ToolError('FS_PATH_TYPE', `'${virtualPath}' is a directory`, details);
    case 'ENOTDIR':
      return new ToolError('FS_PATH_TYPE', `'${virtualPath}' is not a directory`, details);
    case 'ELOOP':
      return new ToolError('FS_ESCAPE', `'${virtualPath}' is a symbolic link; fs tools do not follow links`, details);
    case 'ENOTEMPTY':
      return new ToolError('FS_PATH_TYPE', `directory '${virtualPath}' is not empty`, details);
    case 'EEXIST':
      return new ToolError('FS_EXISTS', `'${virtualPath}' already exists`, details);
    default:
      return new ToolError('FS_FAILED', `file system error ${code} on '${virtualPath}'`, details);
  }
}
