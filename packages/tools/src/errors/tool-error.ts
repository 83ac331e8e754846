/**
 * The one error base of `@askloop/tools`. Every failure a script can see
 * through a tool call is a {@link ToolError} with a stable string `code` and
 * the Go reference's numeric code, so the interpreter can turn it into a
 * script-level error value without knowing any tool.
 */
import { isToolErrorCode, TOOL_ERROR_CODES, type ToolErrorCode } from './error-codes.ts';

const MARKER = Symbol.for('askloop.tools.error');

/** Optional context of a {@link ToolError}. */
export interface ToolErrorDetails {
  /** Display name of the tool involved, e.g. `tool.fs.Write`. */
  tool?: string;
  /** Name of the pack that provides the tool. */
  pack?: string;
  /** Name of the argument involved. */
  argument?: string;
  /** For capability denials: the capability that was missing, e.g. `fs:write:/data/x.txt`. */
  capability?: string;
  /**
   * For a denial a grant would lift (`POLICY_CAPABILITY_MISSING`, `HTTP_HOST_DENIED`, `HTTP_ADDRESS_DENIED`): the
   * grant to add, as a policy's `grants` entry or `askloop --grant` takes it, unquoted (`memory:write:my key`). The
   * message says it too, shell-quoted; this is what a program reads. Absent when no grant can name the capability
   * exactly (a scope with a comma or white space at an end, or one a grant would read as a pattern, `/**`), and on
   * the bare verb of a tool with scoped needs whose arguments were not known: the grant is only ever one that allows
   * the denied call and no more.
   */
  grant?: string;
  /** The underlying error. */
  cause?: unknown;
}

/** A plain, JSON-copyable view of a {@link ToolError}. */
export interface ToolErrorJson {
  code: ToolErrorCode;
  referenceCode: number;
  message: string;
  tool?: string;
  pack?: string;
  argument?: string;
  capability?: string;
  grant?: string;
}

/**
 * Base class of every error this package throws or returns. Use
 * {@link isToolError} rather than `instanceof` when two copies of the package
 * may be loaded.
 */
export class ToolError extends Error {
  readonly code: ToolErrorCode;
  /** The Go reference's numeric code for this failure (e.g. 3, 4, 21, 1003). */
  readonly referenceCode: number;
  tool: string | undefined;
  pack: string | undefined;
  readonly argument: string | undefined;
  readonly capability: string | undefined;
  /** See {@link ToolErrorDetails.grant}. */
  readonly grant: string | undefined;
  readonly [MARKER] = true;

  constructor(code: ToolErrorCode, message: string, details: ToolErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'ToolError';
    // Plugin code written in JavaScript can pass any string; a code outside the table has no reference code or fix.
    if (!isToolErrorCode(code)) {
      throw new TypeError(
        `new ToolError(${JSON.stringify(String(code))}, …): not a ToolError code; use one of TOOL_ERROR_CODES (e.g. TOOL_FAILED, TOOL_VALUE_INVALID), or throw a plain Error, which the host reports as TOOL_FAILED`,
      );
    }
    this.code = code;
    this.referenceCode = TOOL_ERROR_CODES[code].referenceCode;
    this.tool = details.tool;
    this.pack = details.pack;
    this.argument = details.argument;
    this.capability = details.capability;
    this.grant = details.grant;
  }

  /** A plain, JSON-copyable view (what crosses the sandbox boundary). */
  toJSON(): ToolErrorJson {
    return {
      code: this.code,
      referenceCode: this.referenceCode,
      message: this.message,
      ...(this.tool === undefined ? {} : { tool: this.tool }),
      ...(this.pack === undefined ? {} : { pack: this.pack }),
      ...(this.argument === undefined ? {} : { argument: this.argument }),
      ...(this.capability === undefined ? {} : { capability: this.capability }),
      ...(this.grant === undefined ? {} : { grant: this.grant }),
    };
  }
}

/**
 * The details of `error` but its cause — tool, pack, argument, capability and grant — for an error built from it
 * (a message with more advice, a tool name added, a secret hidden): every field travels with the new one.
 */
export function detailsOf(error: ToolError): ToolErrorDetails {
  const details: ToolErrorDetails = {};
  if (error.tool !== undefined) details.tool = error.tool;
  if (error.pack !== undefined) details.pack = error.pack;
  if (error.argument !== undefined) details.argument = error.argument;
  if (error.capability !== undefined) details.capability = error.capability;
  if (error.grant !== undefined) details.grant = error.grant;
  return details;
}

/** True for an error thrown by any copy of this package. */
export function isToolError(value: unknown): value is ToolError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
}
