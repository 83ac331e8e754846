/**
 * A sandbox failure (the isolate was stopped or crashed) as a script error:
 * quota breaches keep their limit's name, everything else is `SCRIPT_INTERNAL`
 * or `SCRIPT_ABORTED`. The run's emits, streamed out as they happened, survive.
 */
import { errorKind, type ScriptErrorCode, type ScriptErrorData } from '../runtime/index.ts';
import type { SandboxError } from '../sandbox/index.ts';

const CODES: Record<string, { code: ScriptErrorCode; numericCode: number; hint: string }> = {
  SANDBOX_TIMEOUT: { code: 'SCRIPT_TIMEOUT', numericCode: 37, hint: 'limit: wallMs' },
  SANDBOX_MEMORY: { code: 'SCRIPT_MEMORY_LIMIT', numericCode: 37, hint: 'limit: memoryMb' },
  SANDBOX_STACK_OVERFLOW: { code: 'SCRIPT_CALL_DEPTH', numericCode: 37, hint: 'limit: callDepth' },
  SANDBOX_TOOL_CALL_LIMIT: { code: 'SCRIPT_TOOL_CALL_LIMIT', numericCode: 20, hint: 'limit: toolCalls' },
  SANDBOX_OUTPUT_LIMIT: { code: 'SCRIPT_OUTPUT_LIMIT', numericCode: 37, hint: 'limit: outputBytes' },
  SANDBOX_ABORTED: { code: 'SCRIPT_ABORTED', numericCode: 6, hint: 'the host aborted the run' },
};

/** Maps a sandbox error to script error data. */
export function mapSandboxError(error: SandboxError): ScriptErrorData {
  const known = CODES[error.code];
  if (known !== undefined) {
    return { code: known.code, kind: errorKind(known.code), numericCode: known.numericCode, message: `${error.message} (${known.hint})`, line: 0, column: 0, frames: [] };
  }
  return { code: 'SCRIPT_INTERNAL', kind: 'internal', numericCode: 6, message: `The sandbox failed (${error.code}): ${error.message}`, line: 0, column: 0, frames: [] };
}
