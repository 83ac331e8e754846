/**
 * Real MCP servers from the registry (everything, filesystem, memory) over
 * stdio, driven through the real interpreter, sandbox and tool host.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closeDefaultPool, createInterpreter } from '@askloop/interpreter';
import { createPolicy, createSafeToolPacks, createToolHost, createToolRegistry, isToolError, type ToolRegistry } from '@askloop/tools';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createMcpToolSource, type McpToolSource } from '../src/index.ts';
import { sanitizeName } from '../src/source/sanitize-name.ts';
import { schemaType } from '../src/source/schema-arguments.ts';
import { NODE, serverBin } from './servers.ts';

let source: McpToolSource;
let registry: ToolRegistry;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'askloop-mcp-fs-'));
  writeFileSync(join(root, 'hello.txt'), 'hello from disk');
  source = createMcpToolSource({
    servers: {
      everything: { command: NODE, args: [serverBin('everything'), 'stdio'] },
      filesystem: { command: NODE, args: [serverBin('filesystem'), root] },
      memory: { command: NODE, args: [serverBin('memory')], env: { MEMORY_FILE_PATH: join(root, 'memory.jsonl') } },
    },
  });
  registry = createToolRegistry([...createSafeToolPacks(), ...(await source.toolPacks())]);
});

afterAll(async () => {
  await source.close();
  await closeDefaultPool();
  rmSync(root, { recursive: true, force: true });
});

const everythingPolicy = createPolicy({ allow: ['tool.everything.*', 'tool.str.*'], grants: ['mcp:call:everything'] });

async function run(program: string, policy = everythingPolicy) {
  const tools = createToolHost({ registry, policy, session: 's', turn: 1 });
  return createInterpreter().run(program, { mode: 'agent', tools });
}

describe('MCP tools as tool specs', () => {
  it('names tools tool.<server>.<Name>, with MCP names made identifiers and arguments from the input schema', () => {
    const sum = registry.require('tool.everything.get_sum').definition.spec;
    expect(sum.displayName).toBe('tool.everything.get_sum');
    expect(sum.arguments.map(({ name, type, required }) => ({ name, type, required }))).toEqual([
      { name: 'a', type: 'number', required: true },
      { name: 'b', type: 'number', required: true },
    ]);
    expect(sum.capabilities).toEqual(['mcp:call:everything']);
    expect(sum.effect).toBe('read');
    expect(sum.requiresApproval).toBeUndefined();
  });

  it('carries every listed tool\'s description, argument names, types and required-ness (compared with the SDK client\'s own listing)', async () => {
    const client = new Client({ name: 'listing-check', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: NODE, args: [serverBin('memory')], env: { MEMORY_FILE_PATH: join(root, 'listing.jsonl') } }));
    try {
      const { tools } = await client.listTools();
      expect(tools.length).toBeGreaterThan(0);
      for (const tool of tools) {
        const spec = registry.require(`tool.memory.${sanitizeName(tool.name)}`).definition.spec;
        // The server's description, with the argument notes (if any) at the end of its first line.
        const [first = '', ...rest] = (tool.description ?? '').trim().split('\n');
        const [specFirst = '', ...specRest] = spec.description.split('\n');
        expect(specFirst.startsWith(first.trimEnd())).toBe(true);
        expect(specRest).toEqual(rest);
        const properties = Object.entries((tool.inputSchema.properties ?? {}) as Record<string, { type?: string }>);
        const required = new Set(tool.inputSchema.required ?? []);
        expect(spec.arguments.map((argument) => argument.name).sort()).toEqual(properties.map(([name]) => sanitizeName(name)).sort());
        for (const [name, schema] of properties) {
          const argument = spec.arguments.find((candidate) => candidate.name === sanitizeName(name));
          expect(argument?.required, `${tool.name}.${name}`).toBe(required.has(name));
          expect(argument?.type, `${tool.name}.${name}`).toBe(schemaType(schema));
        }
      }
    } finally {
      await client.close();
    }
  });

  it('leaves out a tool the server runs only as a task (a plain call of it is refused), and keeps the others', async () => {
    const client = new Client({ name: 'listing-check', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: NODE, args: [serverBin('everything'), 'stdio'] }));
    try {
      const { tools } = await client.listTools();
      const taskOnly = tools.filter((tool) => tool.execution?.taskSupport === 'required').map((tool) => tool.name);
      expect(taskOnly).toContain('simulate-research-query');
      for (const name of taskOnly) expect(registry.get(`tool.everything.${sanitizeName(name)}`), name).toBeUndefined();
      const callable = tools.filter((tool) => tool.execution?.taskSupport !== 'required');
      expect(callable.length).toBeGreaterThan(0);
      for (const tool of callable) expect(registry.get(`tool.everything.${sanitizeName(tool.name)}`), tool.name).toBeDefined();
    } finally {
      await client.close();
    }
  });

  it("shows a model the shapes and allowed values its arguments' types leave out, in the catalogue line", () => {
    const policy = createPolicy({ allow: ['tool.memory.*', 'tool.everything.*'], grants: ['mcp:call:memory', 'mcp:call:everything'] });
    const lines = registry.catalogue(policy).split('\n');
    const line = (name: string): string | undefined => lines.find((candidate) => candidate.startsWith(`${name}(`));
    expect(line('tool.memory.create_entities')).toBe(
      'tool.memory.create_entities(entities: list) -> any [write] - Create multiple new entities in the knowledge graph. Arguments: entities: list of {name: string, entityType: string, observations: list of string}',
    );
    expect(line('tool.everything.get_annotated_message')).toContain('(messageType: string, includeImage?: bool) -> any - ');
    expect(line('tool.everything.get_annotated_message')).toContain('Arguments: messageType: "error"|"success"|"debug" (Type of message to demonstrate different annotation patterns); includeImage (Whether to include an example image)');
    // The catalogue stays one byte a character.
    expect(lines.join('\n')).toMatch(/^[\x00-\xff]*$/);
  });

  it('maps annotations: destructive tools are writes that need approval, read-only ones are reads', () => {
    const write = registry.require('tool.filesystem.write_file').definition.spec;
    expect(write.effect).toBe('write');
    expect(write.requiresApproval).toBe(true);
    expect(write.idempotent).toBe(true);
    const remove = registry.require('tool.memory.delete_entities').definition.spec;
    expect(remove.requiresApproval).toBe(true);
    const create = registry.require('tool.memory.create_entities').definition.spec;
    expect(create.effect).toBe('write');
    expect(create.requiresApproval).toBeUndefined();
    expect(registry.require('tool.filesystem.read_text_file').definition.spec.effect).toBe('read');
  });

  it('lists allowed MCP tools in the catalogue only when allowed', () => {
    const catalogue = registry.catalogue(everythingPolicy);
    expect(catalogue).toContain('tool.everything.echo');
    expect(catalogue).not.toContain('tool.memory.');
  });
});

describe('programs calling MCP tools', () => {
  it('runs a program whose MCP calls are checked first, with positional and named arguments', async () => {
    const result = await run('command\n  set s = tool.everything.get_sum(2, 3)\n  emit s\n  emit tool.everything.echo({"message": "hi there"})\nendcommand\n');
    expect(result.error).toBeNull();
    expect(result.emits).toHaveLength(2);
    expect(result.emits[0]).toContain('5');
    expect(result.emits[1]).toContain('hi there');
  });

  it('returns structuredContent as a NeuroScript map', async () => {
    const result = await run('command\n  set w = tool.everything.get_structured_content("Chicago")\n  emit typeof(w)\n  emit w["temperature"] != nil\nendcommand\n');
    expect(result.error).toBeNull();
    expect(result.emits).toEqual(['map', 'true']);
  });

  it('stops a program with an ungranted MCP tool before anything runs', async () => {
    const policy = createPolicy({ allow: ['tool.everything.*', 'tool.memory.*'], grants: ['mcp:call:everything'] });
    const result = await run('command\n  emit "before"\n  emit tool.everything.echo("x")\n  emit tool.memory.read_graph()\nendcommand\n', policy);
    expect(result.ok).toBe(false);
    expect(result.emits).toEqual([]);
    expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['SCRIPT_TOOL_DENIED']);
    expect(result.diagnostics[0]?.message).toContain('mcp:call:memory');
  });

  it('stops a program with an unknown or unallowed MCP tool before anything runs', async () => {
    const policy = createPolicy({ allow: ['tool.everything.echo'], grants: ['mcp:call:everything'] });
    const result = await run('command\n  emit "before"\n  emit tool.everything.echo("x")\n  emit tool.everything.get_sum(1, 2)\n  emit tool.everything.nope()\nendcommand\n', policy);
    expect(result.emits).toEqual([]);
    expect(result.diagnostics.map((diagnostic) => diagnostic.code).sort()).toEqual(['SCRIPT_TOOL_DENIED', 'SCRIPT_TOOL_UNKNOWN']);
  });

  it('checks the argument count of MCP tools statically', async () => {
    const result = await run('command\n  emit "before"\n  emit tool.everything.get_sum(1)\nendcommand\n');
    expect(result.emits).toEqual([]);
    expect(result.diagnostics.map((diagnostic) => diagnostic.code)).toEqual(['SCRIPT_TOOL_ARGUMENT_COUNT']);
  });

  it('passes nested lists and maps to the memory server and reads its structured graph back', async () => {
    const policy = createPolicy({ allow: ['tool.memory.*'], grants: ['mcp:call:memory'] });
    const program = `command
  set made = tool.memory.create_entities([{"name": "Ada", "entityType": "person", "observations": ["wrote notes"]}])
  set graph = tool.memory.read_graph()
  emit graph["entities"][0]["name"]
  emit graph["entities"][0]["observations"][0]
endcommand
`;
    const result = await run(program, policy);
    expect(result.error).toBeNull();
    expect(result.emits).toEqual(['Ada', 'wrote notes']);
  });

  it('reports arguments the server refuses (its own schema validation) as a script error naming server and tool, at the call', async () => {
    const policy = createPolicy({ allow: ['tool.memory.*'], grants: ['mcp:call:memory'] });
    const result = await run('command\n  emit "before"\n  call tool.memory.create_entities([1, 2])\n  emit "not reached"\nendcommand\n', policy);
    expect(result.emits).toEqual(['before']);
    expect(result.error).toMatchObject({ code: 'SCRIPT_TOOL_ERROR', line: 3 });
    expect(result.error?.message).toContain("MCP server 'memory' tool 'create_entities'");
  });

  it('turns an isError result into a typed tool error naming server and tool', async () => {
    const policy = createPolicy({ allow: ['tool.filesystem.*'], grants: ['mcp:call:filesystem'] });
    const host = createToolHost({ registry, policy, session: 's', turn: 2 });
    expect(await host.call('tool.filesystem.read_text_file', [join(root, 'hello.txt')])).toEqual({ content: 'hello from disk' });
    const failure = await host.call('tool.filesystem.read_text_file', [join(root, 'missing.txt')]).catch((error: unknown) => error);
    expect(isToolError(failure)).toBe(true);
    expect(failure).toMatchObject({ code: 'TOOL_FAILED', tool: 'tool.filesystem.read_text_file' });
    expect((failure as Error).message).toContain("MCP server 'filesystem' tool 'read_text_file' returned an error");
    // The host rewraps the handler's ToolError with the pack name; the MCP error is further down the cause chain.
    const causes: unknown[] = [];
    for (let cause: unknown = failure; cause instanceof Error; cause = cause.cause) causes.push(cause);
    expect(causes.some((cause) => (cause as { code?: string }).code === 'MCP_TOOL_ERROR')).toBe(true);
    expect((failure as Error).message).toContain('(pack mcp.filesystem)');

    const result = await run(`command\n  emit tool.filesystem.read_text_file("${join(root, 'missing.txt')}")\nendcommand\n`, policy);
    expect(result.error?.code).toBe('SCRIPT_TOOL_ERROR');
    expect(result.error?.message).toContain('filesystem');
  });
});

describe('lifecycle', () => {
  it('does not pass the host environment (API keys) to a stdio server', async () => {
    process.env.ASKLOOP_TEST_SECRET = 'sk-should-not-leak';
    try {
      // Restart the server so it is spawned while the variable is set.
      process.kill(source.status().everything?.pid as number, 'SIGKILL');
      await vi.waitFor(() => expect(source.status().everything?.connected).toBe(false), { timeout: 5_000 });
      const host = createToolHost({ registry, policy: everythingPolicy, session: 's', turn: 4 });
      const env = String(await host.call('tool.everything.get_env', []));
      expect(env).toContain('PATH');
      expect(env).not.toContain('sk-should-not-leak');
    } finally {
      delete process.env.ASKLOOP_TEST_SECRET;
    }
  });

  it('starts a killed server again on the next call', async () => {
    const before = source.status().everything;
    expect(before?.connected).toBe(true);
    process.kill(before?.pid as number, 'SIGKILL');
    await vi.waitFor(() => expect(source.status().everything?.connected).toBe(false), { timeout: 5_000 });
    const host = createToolHost({ registry, policy: everythingPolicy, session: 's', turn: 3 });
    expect(await host.call('tool.everything.echo', ['again'])).toContain('again');
    const after = source.status().everything;
    expect(after?.connected).toBe(true);
    expect(after?.pid).not.toBe(before?.pid);
    expect(after?.starts).toBe((before?.starts ?? 0) + 1);
  });

  it("leaves a dead server down through the next turn's listing (toolPacks), and the next call starts it", async () => {
    // The memory server announces no list changes, so its listing is not stale: only a call brings it back (as the README says).
    const packs = await source.toolPacks();
    const before = source.status().memory;
    expect(before?.connected).toBe(true);
    process.kill(before?.pid as number, 'SIGKILL');
    await vi.waitFor(() => expect(source.status().memory?.connected).toBe(false), { timeout: 5_000 });
    const next = await source.toolPacks();
    expect(next[2]).toBe(packs[2]);
    expect(source.status().memory).toMatchObject({ connected: false, starts: before?.starts });
    const host = createToolHost({ registry, policy: createPolicy({ allow: ['tool.memory.*'], grants: ['mcp:call:memory'] }), session: 's', turn: 5 });
    expect(await host.call('tool.memory.read_graph', [])).toMatchObject({ entities: expect.any(Array) });
    expect(source.status().memory).toMatchObject({ connected: true, starts: (before?.starts ?? 0) + 1 });
  });

  it('reuses the listing between turns while no server announced a change', async () => {
    const first = await source.toolPacks();
    const second = await source.toolPacks();
    expect(second.map((pack) => pack.name)).toEqual(['mcp.everything', 'mcp.filesystem', 'mcp.memory']);
    expect(second[0]).toBe(first[0]);
  });
});
