/**
 * Serves one MCP server over this process's stdin/stdout until the client
 * disconnects (stdin ends) — for `askloop mcp serve`. Standard output then
 * carries only the protocol.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

/** Connects `server` to stdio; resolves when the connection closes. */
export async function serveMcpStdio(server: McpServer): Promise<void> {
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  await server.connect(new StdioServerTransport());
  // The SDK's transport does not close itself when stdin ends; without this the process would wait forever.
  process.stdin.once('end', () => void server.close());
  await closed;
}
