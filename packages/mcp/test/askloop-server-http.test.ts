/**
 * AskLoop's MCP server over Streamable HTTP on 127.0.0.1, driven by the SDK's
 * own Client and consumed back through createMcpToolSource (the HTTP client
 * side), so both directions meet a real peer.
 */
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { closeDefaultPool } from '@askloop/interpreter';
import { createDefaultRegistry, createPolicy, createToolHost, createToolRegistry } from '@askloop/tools';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAskLoopMcpServerFactory, createMcpToolSource, GUIDE_URI, serveMcpHttp, type AskFunction, type McpHttpEndpoint } from '../src/index.ts';

let endpoint: McpHttpEndpoint;
let client: Client;
const asked: string[] = [];

const ask: AskFunction = async (agent, task) => {
  asked.push(`${agent}: ${task}`);
  if (task === 'forbidden') {
    const failure = { code: 'SCRIPT_TOOL_DENIED', message: "Tool 'tool.fs.Write' is not allowed here", line: 2, column: 9, sourceLine: '  call tool.fs.Write("x", "y")' };
    return { status: 'HALT', reason: 'ERR_PERMISSIONS', result: null, turns: 1, message: 'the turn failed: SCRIPT_TOOL_DENIED', failure };
  }
  return { status: 'done', reason: 'LOOP:DONE', result: { answer: 42 }, turns: 2, message: null, failure: null };
};

beforeAll(async () => {
  const policy = createPolicy({ allow: ['tool.str.*', 'tool.math.*'] });
  endpoint = await serveMcpHttp(createAskLoopMcpServerFactory({ registry: createDefaultRegistry(), policy, ask, limits: { fuel: 10_000 } }), { port: 0 });
  client = new Client({ name: 'test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url)));
});

afterAll(async () => {
  await client.close();
  await endpoint.close();
  await closeDefaultPool();
});

describe('askloop as an MCP server over HTTP', () => {
  it("introduces itself with the package's version, not a placeholder", async () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(client.getServerVersion()).toMatchObject({ name: 'askloop', version: manifest.version });
    expect(manifest.version).not.toBe('0.0.0');
  });

  it('lists neuroscript_run, neuroscript_check and ask', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['ask', 'neuroscript_check', 'neuroscript_run']);
  });

  it('runs a program and returns emits, whispers and usage', async () => {
    const result = await client.callTool({ name: 'neuroscript_run', arguments: { program: 'command\n  emit tool.str.ToUpper("hi")\n  whisper "notes", 1 + 1\nendcommand\n' } });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ ok: true, emits: ['HI'], whispers: { notes: '2' }, error: null, diagnostics: [] });
  });

  it('runs out of fuel under the server quotas with a typed error and its position', async () => {
    const result = await client.callTool({ name: 'neuroscript_run', arguments: { program: 'command\n  while true\n    set x = 1\n  endwhile\nendcommand\n' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ ok: false, error: { code: 'SCRIPT_FUEL_EXHAUSTED' } });
  });

  it('refuses a program with a denied tool before anything runs', async () => {
    const result = await client.callTool({ name: 'neuroscript_run', arguments: { program: 'command\n  emit "before"\n  emit tool.json.Stringify([1])\nendcommand\n' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ ok: false, emits: [], diagnostics: [{ code: 'SCRIPT_TOOL_DENIED', line: 3 }] });
  });

  it('checks a program with its libraries without running it', async () => {
    const clean = await client.callTool({ name: 'neuroscript_check', arguments: { program: 'command\n  emit tool.math.Add(1, 2)\nendcommand\n' } });
    expect(clean.structuredContent).toEqual({ ok: true, diagnostics: [] });
    const broken = await client.callTool({ name: 'neuroscript_check', arguments: { program: 'command\n  emit tool.str.Nope()\nendcommand\n', libraries: ['func f() means\n  x = 1\nendfunc\n'] } });
    const codes = (broken.structuredContent as { diagnostics: { code: string; file?: string }[] }).diagnostics.map((diagnostic) => `${diagnostic.file}:${diagnostic.code}`);
    expect(codes).toEqual(['library-1:SCRIPT_SYNTAX', 'program.ns:SCRIPT_TOOL_UNKNOWN']);
  });

  it('runs an ask loop through the injected function', async () => {
    const result = await client.callTool({ name: 'ask', arguments: { agent: 'helper', task: 'count' } });
    expect(result.structuredContent).toEqual({ status: 'done', reason: 'LOOP:DONE', result: { answer: 42 }, turns: 2 });
    expect(asked).toEqual(['helper: count']);
  });

  it("says why an ask loop halted: the decision's message and the failure's code, message and line", async () => {
    const result = await client.callTool({ name: 'ask', arguments: { agent: 'helper', task: 'forbidden' } });
    expect(result.structuredContent).toEqual({
      status: 'HALT',
      reason: 'ERR_PERMISSIONS',
      result: null,
      turns: 1,
      message: 'the turn failed: SCRIPT_TOOL_DENIED',
      failure: { code: 'SCRIPT_TOOL_DENIED', message: "Tool 'tool.fs.Write' is not allowed here", line: 2, column: 9 },
    });
  });

  it('serves the catalogue of allowed tools and the guide as resources', async () => {
    const catalogue = await client.readResource({ uri: 'askloop://catalogue' });
    const text = (catalogue.contents[0] as { text: string }).text;
    expect(text).toContain('tool.str.ToUpper');
    expect(text).not.toContain('tool.json.');
    const guide = await client.readResource({ uri: GUIDE_URI });
    const guideText = (guide.contents[0] as { text: string }).text;
    // The guide's example must itself pass the check this server applies.
    const example = /```neuroscript\n(command\n[\s\S]*?endcommand\n)```/.exec(guideText)?.[1];
    expect(example).toBeDefined();
    const checked = await client.callTool({ name: 'neuroscript_check', arguments: { program: example } });
    expect(checked.structuredContent).toEqual({ ok: true, diagnostics: [] });
  });

  it('refuses requests whose Host header is not loopback (DNS rebinding)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      const outgoing = request(endpoint.url, { method: 'POST', headers: { Host: 'evil.example:80', 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      outgoing.on('error', reject);
      outgoing.end(body);
    });
    expect(status).toBe(403);
  });

  it('is usable as an MCP tool source over Streamable HTTP (askloop calling askloop)', async () => {
    const source = createMcpToolSource({ servers: { askloop: { url: endpoint.url, headers: { 'X-Test': 'yes' } } } });
    try {
      const packs = await source.toolPacks();
      const registry = createToolRegistry(packs);
      const spec = registry.require('tool.askloop.neuroscript_check').definition.spec;
      expect(spec.arguments.map((argument) => argument.name)).toEqual(['program', 'libraries']);
      expect(spec.effect).toBe('read');
      expect(registry.require('tool.askloop.neuroscript_run').definition.spec.requiresApproval).toBe(true);
      const host = createToolHost({ registry, policy: createPolicy({ allow: ['tool.askloop.*'], grants: ['mcp:call:askloop'] }), session: 'http', turn: 1 });
      expect(await host.call('tool.askloop.neuroscript_check', ['command\n  emit 1\nendcommand\n'])).toEqual({ ok: true, diagnostics: [] });
    } finally {
      await source.close();
    }
  });
});
