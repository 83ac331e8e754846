/**
 * Turns what a tool, the orchestrator or the prompt hook threw into the
 * `{code, message}` the script sees: tool-host codes (`TOOL_…`, `POLICY_…`)
 * map onto stable `SCRIPT_TOOL_…` codes, and the original code stays in the message.
 */

import { SCRIPT_ERROR_CODES, type ScriptErrorCode } from '../runtime/error-codes.ts';
import { grantOfDenial, type NeededGrant } from '../runtime/needed-grant.ts';

/** A failure as the sandbox passes it into the isolate. */
export interface HostFailureData {
  readonly code: ScriptErrorCode;
  readonly message: string;
  /**
   * The reference's numeric code of a tool's own failure (`TOOL_VALUE_TYPE` 7, `FS_NOT_FOUND` 22), kept for the
   * script's error in place of its script code's (4, 21): existing programs read the reference's numbers.
   */
  readonly numericCode?: number;
  /** For a denial a grant would lift: that grant and the host's code of the denial (see `NeededGrant`). */
  readonly grant?: NeededGrant;
}

/** The script codes a tool's own failure maps to, whose numeric code the tool's reference code replaces. */
const TOOL_FAILURE_CODES: ReadonlySet<ScriptErrorCode> = new Set(['SCRIPT_TOOL_ERROR', 'SCRIPT_TOOL_ARGUMENTS']);

const ARGUMENT_CODES = new Set(['TOOL_ARGUMENT_INVALID', 'TOOL_ARGUMENT_MISSING', 'TOOL_VALUE_TYPE', 'TOOL_VALUE_INVALID', 'TOOL_VALUE_BOUNDS']);

/**
 * The reference's numeric codes a tool host may attach (`referenceCode`):
 * 1003 is every policy denial, whatever its string code (`POLICY_…`, but also
 * `FS_ESCAPE`, `HTTP_HOST_DENIED`, …), 3 is an unknown tool, 4 bad arguments.
 */
const BY_REFERENCE_CODE: Readonly<Record<number, ScriptErrorCode>> = { 1003: 'SCRIPT_TOOL_DENIED', 3: 'SCRIPT_TOOL_NOT_FOUND', 4: 'SCRIPT_TOOL_ARGUMENTS' };

/** The script-facing code for a tool-host error code (and its reference number, when given). */
export function scriptCodeForToolCode(code: string | undefined, referenceCode?: number): ScriptErrorCode {
  if (code?.startsWith('SCRIPT_') && Object.hasOwn(SCRIPT_ERROR_CODES, code)) return code as ScriptErrorCode;
  const byReference = referenceCode === undefined ? undefined : BY_REFERENCE_CODE[referenceCode];
  if (byReference !== undefined) return byReference;
  if (code === undefined) return 'SCRIPT_TOOL_ERROR';
  if (code === 'TOOL_NOT_FOUND') return 'SCRIPT_TOOL_NOT_FOUND';
  if (code.startsWith('POLICY_')) return 'SCRIPT_TOOL_DENIED';
  if (ARGUMENT_CODES.has(code)) return 'SCRIPT_TOOL_ARGUMENTS';
  return 'SCRIPT_TOOL_ERROR';
}

/**
 * Describes a thrown value as a failure for the script: `what` (`tool 'tool.str.split'`), then the original code when
 * it is not the script's, then the message. `named`, when the message already begins with it (a tool host's errors
 * begin with the tool's display name, `tool.str.Split: …`), stands in for `what`, so the tool is named once.
 */
export function mapHostFailure(error: unknown, what: string, named?: string): HostFailureData {
  const raw = typeof error === 'object' && error !== null ? (error as { code?: unknown; message?: unknown; referenceCode?: unknown; grant?: unknown }) : {};
  const code = typeof raw.code === 'string' ? raw.code : undefined;
  const message = typeof raw.message === 'string' ? raw.message : String(error);
  // A reference code is a positive whole number; anything else a tool sets is not one.
  const referenceCode = typeof raw.referenceCode === 'number' && Number.isSafeInteger(raw.referenceCode) && raw.referenceCode >= 1 ? raw.referenceCode : undefined;
  const scriptCode = scriptCodeForToolCode(code, referenceCode);
  const numeric = referenceCode !== undefined && TOOL_FAILURE_CODES.has(scriptCode) ? { numericCode: referenceCode } : {};
  // A denial's grant (`ToolError.grant`, under its own code), kept beside the message: only a denial has one.
  const grant = scriptCode === 'SCRIPT_TOOL_DENIED' ? grantOfDenial(raw.grant, code) : undefined;
  const prefix = code !== undefined && code !== scriptCode ? `[${code}] ` : '';
  // A message mapped once already (a replay answers with the recorded one) starts with the original code: look past it,
  // so the second mapping gives the same text as the first.
  const bare = message.replace(/^\[[A-Z][A-Z0-9_]*\] /, '');
  const namesItself = named !== undefined && bare.toLowerCase().startsWith(named.toLowerCase());
  // Mapped once already with `what` in front (a replay answers with the recorded failure): named once, not twice.
  const mappedBefore = prefix === '' && message.startsWith(`${what}: `);
  return { code: scriptCode, message: namesItself || mappedBefore ? `${prefix}${message}` : `${what}: ${prefix}${message}`, ...numeric, ...(grant === undefined ? {} : { grant }) };
}

/** An Error with a string code, the shape the sandbox reads from a throw. */
export class HostCallError extends Error {
  readonly code: ScriptErrorCode;
  readonly numericCode: number | undefined;
  readonly grant: NeededGrant | undefined;
  constructor(failure: HostFailureData) {
    super(failure.message);
    this.name = 'HostCallError';
    this.code = failure.code;
    this.numericCode = failure.numericCode;
    this.grant = failure.grant;
  }
}
