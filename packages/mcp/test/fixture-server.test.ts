/**
 * The fixture server (test/fixtures/fixture-server.ts, an SDK McpServer over
 * stdio): timeouts with cancellation, error results, tools/list_changed, and
 * MCP names that are not identifiers.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPolicy, createToolHost, createToolRegistry, isToolError, type ToolPack } from '@askloop/tools';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMcpToolSource, type McpToolSource } from '../src/index.ts';
import { FIXTURE_SERVER, NODE } from './servers.ts';

let source: McpToolSource;
let directory: string;
let marker: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'askloop-mcp-fixture-'));
  marker = join(directory, 'cancelled');
  source = createMcpToolSource({ servers: { fixture: { command: NODE, args: [FIXTURE_SERVER], env: { CANCEL_MARKER: marker }, timeoutMs: 2_000, maxResultBytes: 10_000 } } });
});

afterAll(async () => {
  await source.close();
  rmSync(directory, { recursive: true, force: true });
});

const policy = createPolicy({ allow: ['tool.fixture.*'], grants: ['mcp:call:fixture'] });
const hostFor = (packs: readonly ToolPack[], turn = 1) => createToolHost({ registry: createToolRegistry(packs), policy, session: 'fixture', turn });

describe('the fixture server', () => {
  it('times out a call that never answers with TOOL_TIMEOUT and cancels it on the server', async () => {
    const host = hostFor(await source.toolPacks());
    const failure = await host.call('tool.fixture.hang', []).catch((error: unknown) => error);
    expect(isToolError(failure)).toBe(true);
    expect(failure).toMatchObject({ code: 'TOOL_TIMEOUT', tool: 'tool.fixture.hang', message: expect.stringContaining("MCP server 'fixture' tool 'hang' did not answer within 2000 ms; the call was cancelled on the server") });
    const causes: unknown[] = [];
    for (let cause = (failure as Error).cause; cause !== undefined; cause = (cause as Error).cause) causes.push(cause);
    expect(causes).toContainEqual(expect.objectContaining({ code: 'MCP_TIMEOUT', server: 'fixture', tool: 'hang' }));
    // Until its text is there: `writeFileSync` creates the file before it writes, and a loaded machine read it empty in between.
    await vi.waitFor(() => expect(existsSync(marker) ? readFileSync(marker, 'utf8') : undefined).toBe('cancelled'), { timeout: 5_000 });
    // The connection survives a cancelled call.
    expect(await host.call('tool.fixture.kebab_tool', ['Ada'])).toEqual({ received: { 'first-name': 'Ada' } });
  });

  it('maps sanitized argument names back to the MCP property names, required ones first', async () => {
    const packs = await source.toolPacks();
    const spec = createToolRegistry(packs).require('tool.fixture.kebab_tool').definition.spec;
    expect(spec.arguments.map((argument) => [argument.name, argument.type, argument.required])).toEqual([
      ['first_name', 'string', true],
      ['count', 'int', false],
      ['first_name_2', 'string', false],
      ['tags', 'list', false],
    ]);
    const host = hostFor(packs, 2);
    expect(await host.call('tool.fixture.kebab_tool', [{ first_name: 'Ada', first_name_2: 'B', count: '3', tags: ['x'] }])).toEqual({
      received: { 'first-name': 'Ada', first_name: 'B', count: 3, tags: ['x'] },
    });
  });

  it('turns an error result into TOOL_FAILED naming server and tool', async () => {
    const host = hostFor(await source.toolPacks(), 3);
    await expect(host.call('tool.fixture.fail', ['no reason'])).rejects.toMatchObject({
      code: 'TOOL_FAILED',
      message: expect.stringContaining("MCP server 'fixture' tool 'fail' returned an error: it broke: no reason"),
    });
  });

  it('refuses a result over maxResultBytes before it reaches the sandbox', async () => {
    const host = hostFor(await source.toolPacks(), 6);
    expect(await host.call('tool.fixture.big', [9_000])).toHaveLength(9_000);
    await expect(host.call('tool.fixture.big', [20_000])).rejects.toMatchObject({
      code: 'TOOL_FAILED',
      message: expect.stringContaining('over the limit of 10000 (maxResultBytes)'),
    });
  });

  it('marks the catalogue stale on tools/list_changed and lists the new tool on the next listing', async () => {
    const packs = await source.toolPacks();
    expect(packs[0]?.tools.map((tool) => tool.spec.displayName)).not.toContain('tool.fixture.grown_1');
    expect(source.stale).toBe(false);
    await hostFor(packs, 4).call('tool.fixture.grow', []);
    await vi.waitFor(() => expect(source.stale).toBe(true), { timeout: 5_000 });
    const next = await source.toolPacks();
    expect(source.stale).toBe(false);
    expect(next[0]?.tools.map((tool) => tool.spec.displayName)).toContain('tool.fixture.grown_1');
    expect(await hostFor(next, 5).call('tool.fixture.grown_1', [])).toBe('grown 1');
  });

  it('fails every use after close() with MCP_CLOSED', async () => {
    const closing = createMcpToolSource({ servers: { fixture: { command: NODE, args: [FIXTURE_SERVER] } } });
    await closing.close();
    await expect(closing.toolPacks()).rejects.toMatchObject({ code: 'MCP_CLOSED' });
  });

  it('reports a server that cannot start as MCP_CONNECT_FAILED with its stderr', async () => {
    const broken = createMcpToolSource({ servers: { broken: { command: NODE, args: ['-e', 'console.error("no such luck"); process.exit(3)'] } } });
    try {
      await expect(broken.toolPacks()).rejects.toMatchObject({ code: 'MCP_CONNECT_FAILED', server: 'broken' });
    } finally {
      await broken.close();
    }
  });
});
