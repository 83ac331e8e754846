/**
 * A live server's odd answers (test/fixtures/raw-server.ts, JSON-RPC written
 * by hand) must not cost it its process: a JSON-RPC error whose code happens
 * to be -32000 is the server's answer, not a closed connection, so the
 * server that gave it keeps serving (a restart would lose what it holds in
 * memory: a browser, a session, a cache).
 */
import { fileURLToPath } from 'node:url';
import { createPolicy, createToolHost, createToolRegistry, renderCatalogueLine, type ToolHost, type ToolRegistry } from '@askloop/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpToolSource, type McpToolSource } from '../src/index.ts';
import { NODE } from './servers.ts';

const RAW_SERVER = fileURLToPath(new URL('./fixtures/raw-server.ts', import.meta.url));
let source: McpToolSource;
let host: ToolHost;
let registry: ToolRegistry;

beforeAll(async () => {
  source = createMcpToolSource({ servers: { raw: { command: NODE, args: [RAW_SERVER], timeoutMs: 5_000 } } });
  const policy = createPolicy({ allow: ['tool.raw.*'], grants: ['mcp:call:raw'] });
  registry = createToolRegistry(await source.toolPacks());
  host = createToolHost({ registry, policy, session: 'raw', turn: 1 });
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

describe('a live server that answers at once with -32001, the code of the SDK\'s own timeout', () => {
  it('says what the server said, not that it did not answer in time', async () => {
    const failure = (await host.call('tool.raw.upstream_timeout', []).catch((error: unknown) => error)) as Error;
    expect(codes(failure)).toContain('MCP_REQUEST_FAILED');
    expect(codes(failure)).not.toContain('MCP_TIMEOUT');
    expect(failure.message).toContain("MCP server 'raw' failed calling tool 'upstream_timeout': MCP error -32001: the upstream API timed out after 5000 ms");
    expect(source.status().raw).toMatchObject({ connected: true });
  });
});

describe('a tool description of 140 KB on one line', () => {
  it('is cut before a word to 1,000 characters in the catalogue line every turn shows', async () => {
    const spec = registry.get('tool.raw.described');
    const line = renderCatalogueLine(spec as NonNullable<typeof spec>);
    expect(line.length).toBeLessThan(1_200);
    expect(line).toMatch(/ - (Finds things\. )+Finds \.\.\.$/);
  });
});

describe('a live server whose answer is not MCP', () => {
  it('names what is wrong in the result in one line, and keeps the server', async () => {
    const pid = await host.call('tool.raw.pid', []);
    const failure = (await host.call('tool.raw.bad_result', []).catch((error: unknown) => error)) as Error;
    expect(failure).toMatchObject({ code: 'TOOL_FAILED' });
    expect(codes(failure)).toContain('MCP_REQUEST_FAILED');
    expect(failure.message).toContain(
      "MCP server 'raw' answered tool 'bad_result' with a result that is not an MCP tool result (content[0].text: expected string, received undefined; content[1].text: expected string, received number",
    );
    expect(failure.message).not.toContain('\n');
    expect(source.status().raw).toMatchObject({ connected: true, starts: 1 });
    expect(await host.call('tool.raw.pid', [])).toBe(pid);
  });
});

describe('a tool list that is not MCP', () => {
  it('fails MCP_LIST_FAILED naming the field, in one line', async () => {
    const bad = createMcpToolSource({ servers: { raw: { command: NODE, args: [RAW_SERVER], env: { RAW_BAD_LIST: '1' } } } });
    try {
      const failure = (await bad.toolPacks().catch((error: unknown) => error)) as Error;
      expect(failure).toMatchObject({ code: 'MCP_LIST_FAILED', server: 'raw' });
      expect(failure.message).toBe("MCP server 'raw' failed tools/list: its answer is not an MCP tool list (tools[1].inputSchema.properties: expected record, received string)");
      expect(bad.status().raw).toMatchObject({ connected: true, starts: 1 });
    } finally {
      await bad.close();
    }
  });
});

describe('an answer past what the stdio transport reads', () => {
  // The SDK's stdio transport reads at most 10 MiB a message (more, and it closes the connection): 11 MiB passes it.
  const ELEVEN_MIB = 11 * 1024 * 1024;

  it('fails MCP_RESULT_TOO_LARGE saying so, not a bare "Connection closed", and starts the server again on the next call', async () => {
    const failure = (await host.call('tool.raw.huge', [ELEVEN_MIB]).catch((error: unknown) => error)) as Error;
    expect(failure).toMatchObject({ code: 'TOOL_FAILED' });
    expect(codes(failure)).toContain('MCP_RESULT_TOO_LARGE');
    expect(failure.message).toContain("MCP server 'raw' tool 'huge' sent an answer over 10485760 bytes, the most this client reads in one message from this server (4 × maxResultBytes, at least 10 MiB); the server was stopped");
    expect(await host.call('tool.raw.huge', [3])).toBe('xxx');
  });

  it('reads a larger answer when maxResultBytes is raised', async () => {
    const large = createMcpToolSource({ servers: { raw: { command: NODE, args: [RAW_SERVER], maxResultBytes: 12 * 1024 * 1024 } } });
    try {
      const policy = createPolicy({ allow: ['tool.raw.*'], grants: ['mcp:call:raw'] });
      const largeHost = createToolHost({ registry: createToolRegistry(await large.toolPacks()), policy, session: 'raw', turn: 1, maxResultLength: ELEVEN_MIB });
      expect(await largeHost.call('tool.raw.huge', [ELEVEN_MIB])).toHaveLength(ELEVEN_MIB);
    } finally {
      await large.close();
    }
  });
});
