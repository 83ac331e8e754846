/**
 * An MCP server's credentials never show in the errors this package builds
 * from what the server or its transport said: a Streamable HTTP server on
 * 127.0.0.1 that echoes the bearer token in its 401 body (as OpenAI-style
 * APIs do), and a stdio server (test/fixtures/leaky-server.ts) that puts its
 * `env` token in its stderr, a tools/list error, a tools/call error and an
 * error result. The token is replaced by [REDACTED] in the message and in
 * every cause's message and stack.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createPolicy, createToolHost, createToolRegistry } from '@askloop/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpToolSource, type McpServerConfig } from '../src/index.ts';
import { NODE } from './servers.ts';

const TOKEN = 'tok-SUPERSECRET-98765';
const LEAKY_SERVER = fileURLToPath(new URL('./fixtures/leaky-server.ts', import.meta.url));
let http: Server;
let url: string;

beforeAll(async () => {
  http = createServer((request, response) => {
    const key = (request.headers.authorization ?? '').replace('Bearer ', '');
    response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `Incorrect API key provided: ${key}.`, code: 'invalid_api_key' } }));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
});

/** Every text of the error a caller or a logger could show: message, JSON, and each cause's message, stack and data. */
function texts(error: unknown): string[] {
  const found: string[] = [JSON.stringify(error)];
  for (let cause = error, depth = 0; cause !== undefined && cause !== null && depth < 10; cause = (cause as Error).cause, depth++) {
    const item = cause as Error & { data?: unknown };
    found.push(String(item.message), String(item.stack), JSON.stringify(item.data) ?? '');
  }
  return found;
}

function expectRedacted(error: unknown, code: string): void {
  expect(error).toBeInstanceOf(Error);
  const codes: unknown[] = [];
  for (let cause = error; cause !== undefined; cause = (cause as Error).cause) codes.push((cause as { code?: unknown }).code);
  expect(codes).toContain(code);
  expect((error as Error).message).toContain('[REDACTED]');
  for (const text of texts(error)) expect(text).not.toContain(TOKEN);
}

const leaky = (mode: string): McpServerConfig => ({ command: NODE, args: [LEAKY_SERVER], env: { LEAKY_TOKEN: TOKEN, LEAKY_MODE: mode } });

describe('credentials in MCP errors', () => {
  it('redacts a bearer token a Streamable HTTP server echoes in its 401 body', async () => {
    const source = createMcpToolSource({ servers: { t: { url, headers: { Authorization: `Bearer ${TOKEN}` } } } });
    try {
      const failure = await source.toolPacks().catch((error: unknown) => error);
      expectRedacted(failure, 'MCP_CONNECT_FAILED');
      expect((failure as Error).message).toContain("MCP server 't' did not start");
      expect((failure as Error).message).toContain('Incorrect API key provided: [REDACTED]');
    } finally {
      await source.close();
    }
  });

  it('redacts an env value a stdio server prints on stderr before it dies', async () => {
    const source = createMcpToolSource({ servers: { leaky: leaky('crash') } });
    try {
      const failure = await source.toolPacks().catch((error: unknown) => error);
      expectRedacted(failure, 'MCP_CONNECT_FAILED');
      expect((failure as Error).message).toContain('server stderr: fatal: upstream refused the key [REDACTED]');
    } finally {
      await source.close();
    }
  });

  it('redacts it in a tools/list error', async () => {
    const source = createMcpToolSource({ servers: { leaky: leaky('list') } });
    try {
      expectRedacted(await source.toolPacks().catch((error: unknown) => error), 'MCP_LIST_FAILED');
    } finally {
      await source.close();
    }
  });

  it('redacts it in a tools/call error and in an error result', async () => {
    const source = createMcpToolSource({ servers: { leaky: leaky('') } });
    try {
      const host = createToolHost({ registry: createToolRegistry(await source.toolPacks()), policy: createPolicy({ allow: ['tool.leaky.*'], grants: ['mcp:call:leaky'] }), session: 's', turn: 1 });
      const refused = await host.call('tool.leaky.refuse', []).catch((error: unknown) => error);
      expectRedacted(refused, 'MCP_REQUEST_FAILED');
      // The server and the tool named once (the connection's message already names them).
      expect((refused as Error).message.match(/MCP server 'leaky'/g)).toHaveLength(1);
      expectRedacted(await host.call('tool.leaky.complain', []).catch((error: unknown) => error), 'MCP_TOOL_ERROR');
    } finally {
      await source.close();
    }
  });

  it('quotes the tail of its stderr, redacted, when it dies in the middle of a call', async () => {
    const source = createMcpToolSource({ servers: { leaky: leaky('') } });
    try {
      const host = createToolHost({ registry: createToolRegistry(await source.toolPacks()), policy: createPolicy({ allow: ['tool.leaky.*'], grants: ['mcp:call:leaky'] }), session: 's', turn: 1 });
      const died = await host.call('tool.leaky.die', []).catch((error: unknown) => error);
      expectRedacted(died, 'MCP_REQUEST_FAILED');
      expect((died as Error).message).toContain('server stderr: panic: lost the upstream connection (key [REDACTED])');
      // Only what the server said during the call: its start-up line is no part of why the call failed.
      expect((died as Error).message).not.toContain('running on stdio');
      // The next call starts the server again and works.
      expect(JSON.stringify(await host.call('tool.leaky.whoami', []))).toContain('[REDACTED]');
    } finally {
      await source.close();
    }
  });

  it('redacts its configured value in a successful result, and nothing else of the data', async () => {
    const source = createMcpToolSource({ servers: { leaky: leaky('') } });
    try {
      const host = createToolHost({ registry: createToolRegistry(await source.toolPacks()), policy: createPolicy({ allow: ['tool.leaky.*'], grants: ['mcp:call:leaky'] }), session: 's', turn: 1 });
      const result = await host.call('tool.leaky.whoami', []);
      expect(JSON.stringify(result)).not.toContain(TOKEN);
      expect(JSON.stringify(result)).toContain('[REDACTED]');
      // Prose about credentials is the program's data: no pattern is applied to a successful result.
      expect(JSON.stringify(result)).toContain('Bearer tokens expire after an hour');
    } finally {
      await source.close();
    }
  });
});
