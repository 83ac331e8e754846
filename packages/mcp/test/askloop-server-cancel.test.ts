/**
 * Cancellation through two MCP hops: an SDK client runs a program on
 * AskLoop's server (linked by the SDK's in-memory transport pair) whose tool
 * is the fixture server's `hang`, over stdio. When the client cancels its
 * request, or the run passes its wall clock, the run ends and the pending
 * call is cancelled on the fixture server (notifications/cancelled).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeDefaultPool } from '@askloop/interpreter';
import { createPolicy, createToolRegistry } from '@askloop/tools';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAskLoopMcpServer, createMcpToolSource, type McpToolSource } from '../src/index.ts';
import { FIXTURE_SERVER, NODE } from './servers.ts';

let directory: string;
const sources: McpToolSource[] = [];

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'askloop-mcp-cancel-'));
});

afterAll(async () => {
  await Promise.all(sources.map((source) => source.close()));
  await closeDefaultPool();
  rmSync(directory, { recursive: true, force: true });
});

/** An SDK client connected to an AskLoop server whose only tools are a fresh fixture server's (markers named by `tag`). */
async function clientFor(tag: string, wallMs: number) {
  const markers = { started: join(directory, `${tag}-started`), cancelled: join(directory, `${tag}-cancelled`) };
  const source = createMcpToolSource({
    servers: { fixture: { command: NODE, args: [FIXTURE_SERVER], env: { STARTED_MARKER: markers.started, CANCEL_MARKER: markers.cancelled }, timeoutMs: 60_000 } },
  });
  sources.push(source);
  const server = createAskLoopMcpServer({
    registry: createToolRegistry(await source.toolPacks()),
    policy: createPolicy({ allow: ['tool.fixture.*'], grants: ['mcp:call:fixture'] }),
    limits: { wallMs },
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'cancel-test', version: '1.0.0' });
  await client.connect(clientSide);
  return { client, markers };
}

const HANG = { name: 'neuroscript_run', arguments: { program: 'command\n  emit tool.fixture.hang()\nendcommand\n' } };

describe('cancellation through askloop mcp serve to the MCP server behind a tool', () => {
  it('cancels the pending call on the server behind the tool when the client cancels its request', async () => {
    const { client, markers } = await clientFor('client', 60_000);
    try {
      const controller = new AbortController();
      const call = client.callTool(HANG, undefined, { signal: controller.signal }).catch((error: unknown) => error);
      await vi.waitFor(() => expect(existsSync(markers.started)).toBe(true), { timeout: 20_000 });
      controller.abort(new Error('the user gave up'));
      expect(await call).toBeInstanceOf(Error);
      await vi.waitFor(() => expect(existsSync(markers.cancelled)).toBe(true), { timeout: 10_000 });
    } finally {
      await client.close();
    }
  });

  it('cancels the pending call when the run passes its wall clock, and reports the timeout', async () => {
    const { client, markers } = await clientFor('wall', 500);
    try {
      const result = await client.callTool(HANG);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ ok: false, error: { code: 'SCRIPT_TIMEOUT' } });
      await vi.waitFor(() => expect(existsSync(markers.cancelled)).toBe(true), { timeout: 10_000 });
    } finally {
      await client.close();
    }
  });
});
