/**
 * A live server's odd answers (test/fixtures/raw-server.ts, JSON-RPC written
 * by hand) must not cost it its process: a JSON-RPC error whose code happens
 * to be -32000 is the server's answer, not a closed connection, so the
 * server that gave it keeps serving (a restart would lose what it holds in
 * memory: a browser, a session, a cache).
 */
import { fileURLToPath } from 'node:url';
import { createPolicy, createToolHost, createToolRegistry, type ToolHost } from '@askloop/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpToolSource, type McpToolSource } from '../src/index.ts';
import { NODE } from './servers.ts';

const RAW_SERVER = fileURLToPath(new URL('./fixtures/raw-server.ts', import.meta.url));
let source: McpToolSource;
let host: ToolHost;

beforeAll(async () => {
  source = createMcpToolSource({ servers: { raw: { command: NODE, args: [RAW_SERVER], timeoutMs: 5_000 } } });
  const policy = createPolicy({ allow: ['tool.raw.*'], grants: ['mcp:call:raw'] });
  host = createToolHost({ registry: createToolRegistry(await source.toolPacks()), policy, session: 'raw', turn: 1 });
});

afterAll(async () => {
  await source.close();
});

/** The codes down an error's cause chain. */
const codes = (error: unknown): unknown[] => {
  const found: unknown[] = [];
  for (let cause = error; cause !== undefined && cause !== null; cause = (cause as Error).cause) found.push((cause as { code?: unknown }).code);
  return found;
};

describe('a live server that answers oddly', () => {
  it('keeps a server that answers a call with JSON-RPC error -32000, and says what it said', async () => {
    const pid = await host.call('tool.raw.pid', []);
    const failure = await host.call('tool.raw.server_error', []).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'TOOL_FAILED', message: expect.stringContaining("MCP server 'raw' failed calling tool 'server_error': MCP error -32000: database is locked") });
    expect(codes(failure)).toContain('MCP_REQUEST_FAILED');
    expect(source.status().raw).toMatchObject({ connected: true, starts: 1 });
    expect(await host.call('tool.raw.pid', [])).toBe(pid);
  });
});
