/**
 * The `askloop://catalogue` resource lists the tools a client's program may
 * call, and no other: server-memory's destructive tools need a person's
 * approval, which every `neuroscript_run` refuses (POLICY_APPROVAL_UNAVAILABLE),
 * so they are named apart as not callable. Regression: the resource was the
 * policy's catalogue, listing them among the callable tools.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeDefaultPool } from '@askloop/interpreter';
import { createPolicy, createSafeToolPacks, createToolRegistry, type ToolRegistry } from '@askloop/tools';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAskLoopMcpServer, createMcpToolSource, type McpToolSource } from '../src/index.ts';
import { NODE, serverBin } from './servers.ts';

let directory: string;
let source: McpToolSource;
let registry: ToolRegistry;
let client: Client;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'askloop-mcp-catalogue-'));
  source = createMcpToolSource({ servers: { kg: { command: NODE, args: [serverBin('memory')], env: { MEMORY_FILE_PATH: join(directory, 'memory.jsonl') } } } });
  registry = createToolRegistry([...createSafeToolPacks(), ...(await source.toolPacks())]);
  const server = createAskLoopMcpServer({ registry, policy: createPolicy({ allow: ['tool.kg.*', 'tool.str.ToUpper'], grants: ['mcp:call:kg'] }) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'catalogue', version: '1.0.0' });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client.close();
  await source.close();
  await closeDefaultPool();
  rmSync(directory, { recursive: true, force: true });
});

/** The tool names the catalogue lists as callable (its `tool.…(` lines). */
const listed = (text: string): string[] => [...text.matchAll(/^(tool\.[A-Za-z0-9_.]+)\(/gm)].map((match) => match[1] as string);

describe('askloop://catalogue', () => {
  it("lists as callable exactly the allowed tools the check lets a client's program call, and names the ones needing approval apart", async () => {
    const resource = await client.readResource({ uri: 'askloop://catalogue' });
    const text = (resource.contents[0] as { text: string }).text;
    const gated = registry.specs().filter((spec) => spec.group === 'kg' && spec.requiresApproval === true).map((spec) => spec.displayName);
    expect(gated).toContain('tool.kg.delete_entities');
    const callable = listed(text);
    expect(callable).toContain('tool.kg.read_graph');
    expect(callable).toContain('tool.str.ToUpper');
    for (const name of gated) expect(callable).not.toContain(name);
    expect(text).toContain(`Allowed by the policy but not callable here, since each needs a person's approval and a program an MCP client sends has no one to ask (an agent turn, the ask tool or askloop run, pauses for it): ${[...gated].sort().join(', ')}`);
    expect(text).not.toContain('tool.str.ToLower');

    // The check agrees, tool by tool: a listed tool is not denied, a gated one is, for want of an approver.
    for (const name of [...callable, ...gated]) {
      const checked = await client.callTool({ name: 'neuroscript_check', arguments: { program: `command\n  call ${name}()\nendcommand\n` } });
      const denied = (checked.structuredContent as { diagnostics: { code: string; message: string }[] }).diagnostics.filter((diagnostic) => diagnostic.code === 'SCRIPT_TOOL_DENIED');
      if (gated.includes(name)) expect(denied, name).toMatchObject([{ message: expect.stringContaining('POLICY_APPROVAL_UNAVAILABLE') }]);
      else expect(denied, name).toEqual([]);
    }
  });
});
