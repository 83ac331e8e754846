/**
 * Rewraps whatever a handler threw (rollup style) so the message and fields
 * name the tool and its pack; the loop can then report which tool failed
 * without knowing any tool. A `ToolError` keeps its code; anything else,
 * and a `ToolError` of another copy of the package whose code this one does
 * not know, becomes `TOOL_FAILED` (reference code 21) with the original as
 * `cause` and its message kept.
 */
import { isToolErrorCode } from '../errors/error-codes.ts';
import { ToolError, isToolError } from '../errors/tool-error.ts';

/** The error to surface for a failure of tool `toolName` from pack `pack`. */
export function wrapToolFailure(error: unknown, toolName: string, pack: string): ToolError {
  // A ToolError of another copy of this package may carry a code this copy does not know: it failed all the same.
  if (isToolError(error) && isToolErrorCode(error.code)) {
    if (error.tool !== undefined && error.pack !== undefined) return error;
    const message = error.message.startsWith(toolName) ? error.message : `${toolName}: ${error.message}`;
    return new ToolError(error.code, `${message} (pack ${pack})`, {
      tool: error.tool ?? toolName,
      pack,
      ...(error.argument === undefined ? {} : { argument: error.argument }),
      ...(error.capability === undefined ? {} : { capability: error.capability }),
      cause: error,
    });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new ToolError('TOOL_FAILED', `${toolName} (pack ${pack}) failed: ${detail}`, { tool: toolName, pack, cause: error });
}
