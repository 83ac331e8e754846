/**
 * Every error code of `@askloop/mcp`, with the fix a reader should apply.
 * The README's error table is this list.
 */

/** Every stable error code this package raises. Sorted; stable across releases. */
export const MCP_ERROR_CODES = {
  MCP_CLOSED: { fix: 'The tool source was closed with close() (a server still starting then is stopped); create a new one with createMcpToolSource().' },
  MCP_CONFIG_INVALID: { fix: 'Fix the server configuration as the message says: {"servers": {"name": {"command", "args", "env", "cwd"} | {"url", "headers"}}}, names of letters, digits and _, not starting with a digit.' },
  MCP_CONNECT_FAILED: { fix: 'The server did not start or answer initialize within startTimeoutMs (30,000 by default; the server is then stopped); check its command/URL (the message has the tail of its stderr, credentials [REDACTED]) and run it by hand, or raise startTimeoutMs for a slow start (npx fetching the package).' },
  MCP_LIST_FAILED: { fix: 'The server failed tools/list or did not answer it within timeoutMs; check the server (its stderr tail is in the message) and call refresh() again.' },
  MCP_REQUEST_FAILED: { fix: 'The server failed or dropped a tools/call (a crash closes the connection; the next call starts it again) or answered with something that is not an MCP tool result (the message names the field; a fault of the server); read the message for the server\'s error (after a crash, the tail of its stderr).' },
  MCP_RESULT_TOO_LARGE: { fix: 'The tool returned more than maxResultBytes (1 MiB by default); ask for less (a range, a page, a filter) or raise maxResultBytes in the server config.' },
  MCP_TIMEOUT: { fix: 'The server did not answer the call within timeoutMs (30,000 by default) and the call was cancelled on it (notifications/cancelled); check the server, ask for less, or raise timeoutMs in its config.' },
  MCP_TOOL_ERROR: { fix: 'The MCP tool ran and reported an error (isError); read its text in the message and change the arguments.' },
} as const;

/** A stable error code of this package. */
export type McpErrorCode = keyof typeof MCP_ERROR_CODES;
