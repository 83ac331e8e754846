/**
 * `neuroscript_run` reports the error that stopped a run with its fix, and,
 * when a failed MCP call stopped it, the MCP code under `SCRIPT_TOOL_ERROR`
 * with that code's fix: an SDK client (in-memory transport) runs programs on
 * AskLoop's server whose tools are the fixture server's, over stdio.
 * Regression: the client saw only SCRIPT_TOOL_ERROR ("see the tool's
 * message"), and no fix for any code (SCRIPT_TIMEOUT, whose line may be 0).
 */
import { closeDefaultPool, SCRIPT_ERROR_CODES } from '@askloop/interpreter';
import { createPolicy, createToolRegistry, type ToolRegistry } from '@askloop/tools';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAskLoopMcpServer, createMcpToolSource, MCP_ERROR_CODES, type McpToolSource, type RunReport } from '../src/index.ts';
import { FIXTURE_SERVER, NODE } from './servers.ts';

let source: McpToolSource;
let registry: ToolRegistry;
let client: Client;

beforeAll(async () => {
  source = createMcpToolSource({ servers: { fixture: { command: NODE, args: [FIXTURE_SERVER], timeoutMs: 500, maxResultBytes: 1_000 } } });
  registry = createToolRegistry(await source.toolPacks());
  client = await clientOf({ wallMs: 5_000 });
});

/** An SDK client of a fresh AskLoop server on the fixture's tools, with the run limits given. */
async function clientOf(limits: { wallMs: number }): Promise<Client> {
  const server = createAskLoopMcpServer({ registry, policy: createPolicy({ allow: ['tool.fixture.*'], grants: ['mcp:call:fixture'] }), limits });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const connected = new Client({ name: 'error-cause', version: '1.0.0' });
  await connected.connect(clientSide);
  return connected;
}

afterAll(async () => {
  await client.close();
  await source.close();
  await closeDefaultPool();
});

async function run(body: string): Promise<RunReport> {
  const result = await client.callTool({ name: 'neuroscript_run', arguments: { program: `command\n${body}\nendcommand\n` } });
  return result.structuredContent as RunReport;
}

const toolErrorFix = SCRIPT_ERROR_CODES.SCRIPT_TOOL_ERROR.fix;

describe("neuroscript_run's error names the MCP code under a failed call, with its fix", () => {
  it('MCP_TOOL_ERROR: the tool returned an error result', async () => {
    const report = await run('  emit "before"\n  emit tool.fixture.fail("no reason")');
    expect(report.error).toEqual({
      code: 'SCRIPT_TOOL_ERROR',
      message: expect.stringContaining("MCP server 'fixture' tool 'fail' returned an error: it broke: no reason"),
      line: 3,
      column: expect.any(Number),
      fix: toolErrorFix,
      cause: { code: 'MCP_TOOL_ERROR', fix: MCP_ERROR_CODES.MCP_TOOL_ERROR.fix },
    });
  });

  it('MCP_TIMEOUT: the server did not answer within timeoutMs', async () => {
    const report = await run('  emit tool.fixture.hang()');
    expect(report.error).toMatchObject({ code: 'SCRIPT_TOOL_ERROR', message: expect.stringContaining('[TOOL_TIMEOUT]'), fix: toolErrorFix, cause: { code: 'MCP_TIMEOUT', fix: MCP_ERROR_CODES.MCP_TIMEOUT.fix } });
  });

  it('MCP_RESULT_TOO_LARGE: the result was over maxResultBytes', async () => {
    const report = await run('  emit tool.fixture.big(5000)');
    expect(report.error).toMatchObject({ code: 'SCRIPT_TOOL_ERROR', cause: { code: 'MCP_RESULT_TOO_LARGE', fix: MCP_ERROR_CODES.MCP_RESULT_TOO_LARGE.fix } });
  });

  it('names no cause when the failure a handler caught is not what stopped the run', async () => {
    const library = 'func tryFail() means\n  on error do\n    clear_error\n  endon\n  call tool.fixture.fail("caught")\nendfunc\n';
    const result = await client.callTool({ name: 'neuroscript_run', arguments: { program: 'command\n  call tryFail()\n  fail "stopped on purpose"\nendcommand\n', libraries: [library] } });
    expect((result.structuredContent as RunReport).error).toEqual({ code: 'SCRIPT_FAIL', message: expect.stringContaining('stopped on purpose'), line: 3, column: expect.any(Number), fix: SCRIPT_ERROR_CODES.SCRIPT_FAIL.fix });
  });

  it('gives the fix of a run stopped by its wall clock during a call (SCRIPT_TIMEOUT), and no cause', async () => {
    // The run's 300 ms end before the server's 500 ms timeoutMs: the run's clock stopped it, not the call.
    const timed = await clientOf({ wallMs: 300 });
    try {
      const result = await timed.callTool({ name: 'neuroscript_run', arguments: { program: 'command\n  emit tool.fixture.hang()\nendcommand\n' } });
      expect((result.structuredContent as RunReport).error).toEqual({ code: 'SCRIPT_TIMEOUT', message: expect.any(String), line: expect.any(Number), column: expect.any(Number), fix: SCRIPT_ERROR_CODES.SCRIPT_TIMEOUT.fix });
    } finally {
      await timed.close();
    }
  });
});
