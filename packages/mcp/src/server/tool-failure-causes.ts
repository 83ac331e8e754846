/**
 * The coded cause behind a failed tool call, for `neuroscript_run`'s report.
 * The interpreter turns what a tool call threw into `SCRIPT_TOOL_ERROR` and
 * a message; the code underneath — `MCP_TIMEOUT`, `MCP_RESULT_TOO_LARGE`,
 * `MCP_REQUEST_FAILED`, `MCP_TOOL_ERROR` from an MCP server's tool, or a tool
 * host's own (`FS_NOT_FOUND`, `TOOL_TIMEOUT`) — and how to fix it are lost on
 * the way, and a client cannot act on "see the tool's message".
 */
import { TOOL_ERROR_CODES } from '@askloop/tools';
import { isAskLoopMcpError } from '../errors/askloop-mcp-error.ts';
import { MCP_ERROR_CODES } from '../errors/mcp-error-codes.ts';

/** The underlying code of a failure, and its fix from the table that defines it. */
export interface ErrorCause {
  readonly code: string;
  readonly fix: string;
}

/** How deep a cause chain is followed: chains are short, and one could loop. */
const MAX_CHAIN = 16;

/** How many failed calls of one run are remembered (the latest): a program may catch and repeat failures in a loop. */
const MAX_REMEMBERED = 32;

/** The fix of a code this package or `@askloop/tools` documents; undefined for any other. */
function documentedFix(error: unknown): ErrorCause | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code !== 'string') return undefined;
  if (isAskLoopMcpError(error) && Object.hasOwn(MCP_ERROR_CODES, code)) return { code, fix: MCP_ERROR_CODES[code as keyof typeof MCP_ERROR_CODES].fix };
  if (Object.hasOwn(TOOL_ERROR_CODES, code)) return { code, fix: TOOL_ERROR_CODES[code as keyof typeof TOOL_ERROR_CODES].fix };
  return undefined;
}

/**
 * The innermost documented code in `error`'s cause chain (the most specific: `MCP_TIMEOUT` under the tool host's
 * `TOOL_TIMEOUT`), with its fix; undefined when the chain has none.
 */
export function codedCause(error: unknown): ErrorCause | undefined {
  let found: ErrorCause | undefined;
  let current: unknown = error;
  for (let depth = 0; depth < MAX_CHAIN && typeof current === 'object' && current !== null; depth += 1) {
    found = documentedFix(current) ?? found;
    current = (current as { cause?: unknown }).cause;
  }
  return found;
}

/** The failed tool calls of one run, to find the one behind the error that stopped it. */
export interface ToolFailureLog {
  /** Notes what a tool call threw. */
  record(error: unknown): void;
  /** The cause of the latest failed call whose message the run's error message carries (the interpreter keeps it whole). */
  causeOf(message: string): ErrorCause | undefined;
}

/** An empty {@link ToolFailureLog}. */
export function createToolFailureLog(): ToolFailureLog {
  const failures: { message: string; cause: ErrorCause }[] = [];
  return {
    record(error) {
      const cause = codedCause(error);
      const message = error instanceof Error ? error.message : undefined;
      if (cause === undefined || message === undefined || message === '') return;
      failures.push({ message, cause });
      if (failures.length > MAX_REMEMBERED) failures.shift();
    },
    causeOf(message) {
      for (let index = failures.length - 1; index >= 0; index -= 1) {
        const failure = failures[index] as { message: string; cause: ErrorCause };
        if (message.includes(failure.message)) return failure.cause;
      }
      return undefined;
    },
  };
}
