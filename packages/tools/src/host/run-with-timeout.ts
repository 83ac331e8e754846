/**
 * Runs a handler with a deadline. The handler gets an AbortSignal that fires
 * at the deadline, so tools doing I/O can stop; the caller gets
 * `TOOL_TIMEOUT` at the deadline even if the handler ignores the signal.
 */
import { ToolError } from '../errors/tool-error.ts';

/** Runs `body(signal)`; rejects with `TOOL_TIMEOUT` after `timeoutMs`. */
export async function runWithTimeout<T>(timeoutMs: number, toolName: string, body: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new ToolError('TOOL_TIMEOUT', `${toolName} did not finish within ${timeoutMs} ms`, { tool: toolName });
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  try {
    return await Promise.race([body(controller.signal), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
