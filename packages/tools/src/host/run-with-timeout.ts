/**
 * Runs a handler with a deadline and a cancellation signal. The handler gets
 * an AbortSignal that fires at the deadline or when `cancel` fires (the run
 * ended), so tools doing I/O can stop; the caller gets `TOOL_TIMEOUT` or
 * `TOOL_CANCELLED` at once even if the handler ignores the signal. The timer
 * and the listener are removed when the call settles either way, so a
 * finished or cancelled call never keeps the process alive.
 */
import { ToolError } from '../errors/tool-error.ts';

/** The error a cancelled call rejects with. */
function cancelled(toolName: string, reason: unknown): ToolError {
  const detail = reason instanceof Error && reason.message !== '' ? `: ${reason.message}` : '';
  return new ToolError('TOOL_CANCELLED', `${toolName} was cancelled because the run ended${detail}`, { tool: toolName });
}

/** Runs `body(signal)`; rejects with `TOOL_TIMEOUT` after `timeoutMs`, or with `TOOL_CANCELLED` as soon as `cancel` aborts. */
export async function runWithTimeout<T>(timeoutMs: number, toolName: string, body: (signal: AbortSignal) => Promise<T>, cancel?: AbortSignal): Promise<T> {
  if (cancel?.aborted === true) throw cancelled(toolName, cancel.reason);
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onCancel: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    const fail = (error: ToolError): void => {
      controller.abort(error);
      reject(error);
    };
    timer = setTimeout(() => fail(new ToolError('TOOL_TIMEOUT', `${toolName} did not finish within ${timeoutMs} ms`, { tool: toolName })), Math.max(0, timeoutMs));
    if (cancel !== undefined) {
      onCancel = () => fail(cancelled(toolName, cancel.reason));
      cancel.addEventListener('abort', onCancel, { once: true });
    }
  });
  try {
    return await Promise.race([body(controller.signal), stop]);
  } finally {
    clearTimeout(timer);
    if (onCancel !== undefined) cancel?.removeEventListener('abort', onCancel);
  }
}
