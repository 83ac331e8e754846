/**
 * Streamable HTTP with configured headers, on 127.0.0.1: a server built on
 * the SDK that answers only requests carrying the right Authorization header
 * (as a hosted MCP server does). The header reaches the server, and a wrong
 * key fails the connection without the key appearing in the error.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPolicy, createToolHost, createToolRegistry } from '@askloop/tools';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpToolSource } from '../src/index.ts';

const KEY = 'test-key-7f3a9c';
let http: Server;
let url: string;

beforeAll(async () => {
  http = createServer((request, response) => {
    if (request.headers.authorization !== `Bearer ${KEY}`) {
      response.writeHead(401, { 'content-type': 'text/plain' }).end('unauthorized');
      return;
    }
    const server = new McpServer({ name: 'guarded', version: '1.0.0' });
    server.registerTool('whoami', { description: 'Says who you are.', annotations: { readOnlyHint: true } }, () => ({ content: [{ type: 'text', text: 'an authorized client' }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(request, response));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
});

describe('Streamable HTTP headers', () => {
  it('sends the configured headers with every request', async () => {
    const source = createMcpToolSource({ servers: { guarded: { url, headers: { Authorization: `Bearer ${KEY}` } } } });
    try {
      const tools = createToolHost({ registry: createToolRegistry(await source.toolPacks()), policy: createPolicy({ allow: ['tool.guarded.*'], grants: ['mcp:call:guarded'] }), session: 's', turn: 1 });
      expect(await tools.call('tool.guarded.whoami', [])).toBe('an authorized client');
    } finally {
      await source.close();
    }
  });

  it('fails to connect with a wrong key, and never shows the key', async () => {
    const source = createMcpToolSource({ servers: { guarded: { url, headers: { Authorization: 'Bearer wrong-key-5d21' } } } });
    try {
      const failure = await source.toolPacks().catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'MCP_CONNECT_FAILED', server: 'guarded' });
      expect(JSON.stringify(failure)).not.toContain('wrong-key-5d21');
      expect((failure as Error).message).not.toContain('wrong-key-5d21');
    } finally {
      await source.close();
    }
  });
});
