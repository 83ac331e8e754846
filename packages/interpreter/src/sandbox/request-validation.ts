/** Checks a run request before it is queued; a bad request is a host mistake and rejects the run. */
import { SandboxError } from './sandbox-error.ts';
import type { SandboxRunRequest } from './sandbox-types.ts';
import { isSecretFingerprint } from './secret-fingerprints.ts';

const ENTRY_NAME = /^[A-Za-z_$][\w$]*$/;

/** Throws `SANDBOX_INVALID_REQUEST` unless the runtime, entry, tool handler, start hook, event handlers, local tools and signal are usable. */
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
  if (request.onLocalToolCall !== undefined && typeof request.onLocalToolCall !== 'function') throw new SandboxError('SANDBOX_INVALID_REQUEST', 'request.onLocalToolCall must be a function when given');
  const local = localToolsProblem(request.localTools);
  if (local !== undefined) throw new SandboxError('SANDBOX_INVALID_REQUEST', `request.localTools ${local}`);
  // Answers no one is told of would skew every later call's index on the host's side.
  if (request.localTools !== undefined && request.onLocalToolCall === undefined) throw new SandboxError('SANDBOX_INVALID_REQUEST', 'request.localTools needs request.onLocalToolCall, to be told of each call the worker answers');
  // Checked before the run is registered: a signal without addEventListener threw after it, and the run left
  // behind made `close()` throw before it killed the workers.
  if (request.signal !== undefined && !isAbortSignal(request.signal)) throw new SandboxError('SANDBOX_INVALID_REQUEST', 'request.signal must be an AbortSignal when given');
}

/** Whether `value` works as an `AbortSignal` (one from another realm too): `aborted` and its listener functions. */
export function isAbortSignal(value: unknown): value is AbortSignal {
  const signal = value as Partial<AbortSignal> | null;
  return typeof signal === 'object' && signal !== null && typeof signal.aborted === 'boolean' && typeof signal.addEventListener === 'function' && typeof signal.removeEventListener === 'function';
}

/** What is wrong with `localTools`, or undefined: it travels to the worker, which imports its module by URL. */
function localToolsProblem(local: SandboxRunRequest['localTools'] | null): string | undefined {
  if (local === undefined) return undefined;
  if (typeof local !== 'object' || local === null) return 'must be { module, names, limits } when given';
  if (typeof local.module !== 'string' || !URL.canParse(local.module)) return `.module must be the URL of an ES module, got ${JSON.stringify(local.module)}`;
  if (!Array.isArray(local.names) || !local.names.every((name) => typeof name === 'string')) return '.names must be a list of tool names';
  const limits = local.limits as { readonly stringLength?: unknown; readonly collectionSize?: unknown } | undefined;
  if (!Number.isSafeInteger(limits?.stringLength) || !Number.isSafeInteger(limits?.collectionSize)) return '.limits must be { stringLength, collectionSize }, whole numbers';
  // Checked here, so the worker never answers with a fingerprint it would have to skip (a secret it could not see).
  if (local.secrets !== undefined && (!Array.isArray(local.secrets) || !local.secrets.every(isSecretFingerprint))) return '.secrets must be a list of secretFingerprints() entries';
  return undefined;
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
