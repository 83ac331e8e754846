/**
 * Rewraps whatever a handler threw (rollup style) so the message and fields
 * name the tool and its pack; the loop can then report which tool failed
 * without knowing any tool. A `ToolError` keeps its code; anything else,
 * and a `ToolError` of another copy of the package whose code this one does
 * not know, becomes `TOOL_FAILED` (reference code 21) with the original as
 * `cause` and its message kept.
 */
import { isToolErrorCode } from '../errors/error-codes.ts';
import { ToolError, detailsOf, isToolError } from '../errors/tool-error.ts';

/**
 * The error to surface for a failure of tool `toolName` from pack `pack`. With `redact` (the host's), a thrown value
 * shown as JSON is redacted before it is cut short: cut first, a key at the cut would keep its start.
 */
export function wrapToolFailure(error: unknown, toolName: string, pack: string, redact?: (text: string) => string): ToolError {
  // A ToolError of another copy of this package may carry a code this copy does not know: it failed all the same.
  if (isToolError(error) && isToolErrorCode(error.code)) {
    if (error.tool !== undefined && error.pack !== undefined) return error;
    const message = error.message.startsWith(toolName) ? error.message : `${toolName}: ${error.message}`;
    return new ToolError(error.code, `${message} (pack ${pack})`, { ...detailsOf(error), tool: error.tool ?? toolName, pack, cause: error });
  }
  const detail = thrownDetail(error, unchanged);
  const shown = redact === undefined ? detail : thrownDetail(error, redact);
  // A cause holding a secret the message had to hide is not kept: whoever reads the error could read it there.
  return new ToolError('TOOL_FAILED', `${toolName} (pack ${pack}) failed: ${shown}`, { tool: toolName, pack, ...(shown === detail ? { cause: error } : {}) });
}

const unchanged = (text: string): string => text;

/** At most this much of a thrown value that is not an `Error`, as JSON, goes into the message. */
const MAX_THROWN_DETAIL = 200;

/**
 * What a handler threw, in words: an `Error`'s message; for a plain object
 * thrown as one (`throw { code, message }`), its code and message; else its
 * JSON, cut short. It used to read `[object Object]`.
 */
function thrownDetail(error: unknown, redact: (text: string) => string): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (typeof message === 'string') return typeof code === 'string' || typeof code === 'number' ? `${String(code)}: ${message}` : message;
    let json: string | undefined;
    try {
      json = JSON.stringify(error);
    } catch {
      json = undefined;
    }
    if (json !== undefined) {
      const shown = redact(json);
      return shown.length > MAX_THROWN_DETAIL ? `${shown.slice(0, MAX_THROWN_DETAIL)}…` : shown;
    }
  }
  return String(error);
}
