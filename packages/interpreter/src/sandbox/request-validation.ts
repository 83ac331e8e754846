/** Checks a run request before it is queued; a bad request is a host mistake and rejects the run. */
import { SandboxError } from './sandbox-error.ts';
import type { SandboxRunRequest } from './sandbox-types.ts';

const ENTRY_NAME = /^[A-Za-z_$][\w$]*$/;

/** Throws `SANDBOX_INVALID_REQUEST` unless the runtime, entry, tool handler, start hook, event handler and signal are usable. */
export function validateRequest(request: SandboxRunRequest): void {
  const runtime = request?.runtime as Partial<SandboxRunRequest['runtime']> | undefined;
  if (typeof runtime?.id !== 'string' || runtime.id === '' || typeof runtime.source !== 'string') {
    throw new SandboxError('SANDBOX_INVALID_REQUEST', 'request.runtime must be { id: non-empty string, source: string }');
  }
  if (typeof request.entry !== 'string' || !ENTRY_NAME.test(request.entry)) {
    throw new SandboxError('SANDBOX_INVALID_REQUEST', `request.entry must be a JavaScript identifier, got ${JSON.stringify(request.entry)}`);
  }
  if (typeof request.onToolCall !== 'function') throw new SandboxError('SANDBOX_INVALID_REQUEST', 'request.onToolCall must be a function');
  if (request.onStart !== undefined && typeof request.onStart !== 'function') throw new SandboxError('SANDBOX_INVALID_REQUEST', 'request.onStart must be a function when given');
  if (request.onEvent !== undefined && typeof request.onEvent !== 'function') throw new SandboxError('SANDBOX_INVALID_REQUEST', 'request.onEvent must be a function when given');
  // Checked before the run is registered: a signal without addEventListener threw after it, and the run left
  // behind made `close()` throw before it killed the workers.
  const signal = request.signal as Partial<AbortSignal> | undefined | null;
  if (signal !== undefined && (typeof signal !== 'object' || signal === null || typeof signal.aborted !== 'boolean' || typeof signal.addEventListener !== 'function' || typeof signal.removeEventListener !== 'function')) {
    throw new SandboxError('SANDBOX_INVALID_REQUEST', 'request.signal must be an AbortSignal when given');
  }
}

/** The input as JSON text (`undefined` becomes `null`); throws `SANDBOX_INVALID_REQUEST` for anything JSON cannot carry. */
export function toInputJson(input: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(input === undefined ? null : input);
  } catch (error) {
    throw new SandboxError('SANDBOX_INVALID_REQUEST', `request.input is not JSON data: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  if (typeof json !== 'string') throw new SandboxError('SANDBOX_INVALID_REQUEST', `request.input is not JSON data (a ${typeof input})`);
  return json;
}
