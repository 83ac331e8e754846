/**
 * The one error base of `@askloop/mcp`. Named `AskLoopMcpError` so it is not
 * confused with the SDK's own `McpError` (a JSON-RPC error from a peer).
 *
 * Inside a tool call the tool host only passes on `ToolError`s, whose codes
 * are closed; so call failures surface as `ToolError` (`TOOL_FAILED`,
 * `TOOL_TIMEOUT`) whose `cause` is an `AskLoopMcpError` with the MCP code.
 */
import type { McpErrorCode } from './mcp-error-codes.ts';

const MARKER = Symbol.for('askloop.mcp.error');

/** Optional context of an {@link AskLoopMcpError}. */
export interface AskLoopMcpErrorDetails {
  /** The configured server name. */
  server?: string;
  /** The tool's MCP name (as the server spells it). */
  tool?: string;
  /** `MCP_CONFIG_INVALID`: where in the config the problem is (`['servers', 'gh', 'args']`), so a file reader can point at its line. */
  configPath?: readonly (string | number)[];
  cause?: unknown;
}

/** An error of this package, with a stable `code` (see {@link MCP_ERROR_CODES}). */
export class AskLoopMcpError extends Error {
  readonly code: McpErrorCode;
  readonly server: string | undefined;
  readonly tool: string | undefined;
  /** See {@link AskLoopMcpErrorDetails.configPath}. */
  readonly configPath: readonly (string | number)[] | undefined;
  readonly [MARKER] = true;

  constructor(code: McpErrorCode, message: string, details: AskLoopMcpErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'AskLoopMcpError';
    this.code = code;
    this.server = details.server;
    this.tool = details.tool;
    this.configPath = details.configPath;
  }

  /** Plain view: code, message, server, tool (never the cause, which may hold a child's output). */
  toJSON(): { code: McpErrorCode; message: string; server?: string; tool?: string } {
    return {
      code: this.code,
      message: this.message,
      ...(this.server === undefined ? {} : { server: this.server }),
      ...(this.tool === undefined ? {} : { tool: this.tool }),
    };
  }
}

/** True for an error thrown by any copy of this package. */
export function isAskLoopMcpError(value: unknown): value is AskLoopMcpError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARKER] === true;
}
