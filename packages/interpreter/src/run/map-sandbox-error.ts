/**
 * A sandbox failure (the isolate was stopped or crashed) as a script error:
 * quota breaches keep their limit's name and kind, an abort is `SCRIPT_ABORTED`
 * (kind `cancelled`), everything else `SCRIPT_INTERNAL`. The run's emits, streamed out as they happened, survive.
 * The line is the evaluator's last checkpoint (`SandboxError.checkpoint`) when the worker had one: a line the run
 * passed within its last fuel window; 0 when the worker had none (it died, or the run never got going).
 */
import { errorKind, numericCodeOf, type ScriptErrorCode, type ScriptErrorData } from '../runtime/index.ts';
import type { SandboxError } from '../sandbox/index.ts';

const CODES: Readonly<Record<string, { code: ScriptErrorCode; hint: string }>> = {
  SANDBOX_TIMEOUT: { code: 'SCRIPT_TIMEOUT', hint: 'limit: wallMs' },
  SANDBOX_MEMORY: { code: 'SCRIPT_MEMORY_LIMIT', hint: 'limit: memoryMb' },
  SANDBOX_STACK_OVERFLOW: { code: 'SCRIPT_CALL_DEPTH', hint: 'limit: callDepth' },
  SANDBOX_TOOL_CALL_LIMIT: { code: 'SCRIPT_TOOL_CALL_LIMIT', hint: 'limit: toolCalls' },
  SANDBOX_OUTPUT_LIMIT: { code: 'SCRIPT_OUTPUT_LIMIT', hint: 'limit: outputBytes' },
  SANDBOX_ABORTED: { code: 'SCRIPT_ABORTED', hint: 'its signal: the caller cancelled it' },
};

/**
 * Maps a sandbox error to script error data. With `wallMs` (the run's own
 * limit), a timeout reads exactly as the evaluator's (`The program ran longer
 * than 1000 ms`), not with the backstop's value (the limit plus its grace),
 * which fires instead when the program is waiting on a tool call.
 */
export function mapSandboxError(error: SandboxError, wallMs?: number): ScriptErrorData {
  const known = Object.hasOwn(CODES, error.code) ? CODES[error.code] : undefined;
  // The checkpoint's line (up to ~1,000 steps behind) locates a run stopped for a quota, its time or its caller; a
  // sandbox fault (`SCRIPT_INTERNAL`) is no fault of that line, and the model would be pointed at it.
  const line = known === undefined ? 0 : (error.checkpoint?.line ?? 0);
  if (known !== undefined) {
    const numericCode = numericCodeOf(known.code);
    const stated = error.code === 'SANDBOX_TIMEOUT' && wallMs !== undefined ? `The program ran longer than ${wallMs} ms (limit: wallMs).` : `${error.message} (${known.hint})`;
    // Stopped from outside, the run is known only as of its last checkpoint: the step that took the time (a slow loop
    // after a fast one) may come after that line, and a model pointed at the line alone looked in the wrong place.
    const message = line > 0 && (error.code === 'SANDBOX_TIMEOUT' || error.code === 'SANDBOX_MEMORY') ? `${stated}${stated.endsWith('.') ? ' It was' : '; it was'} stopped at or after line ${line}.` : stated;
    return { code: known.code, kind: errorKind(known.code), ...(numericCode === undefined ? {} : { numericCode }), message, line, column: 0, frames: [] };
  }
  return { code: 'SCRIPT_INTERNAL', kind: 'internal', numericCode: 6, message: `The sandbox failed (${error.code}): ${error.message}`, line, column: 0, frames: [] };
}
