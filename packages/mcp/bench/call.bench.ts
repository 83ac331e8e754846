/**
 * What the AskLoop layer costs on an MCP call: `echo` of the real
 * server-everything over stdio, called (1) with the SDK client directly — the
 * baseline, (2) through the tool host (binding, policy, timeout, result
 * mapping), (3) from a one-call NeuroScript program (check + sandbox run +
 * the host). Also the cold start of a stdio server (spawn, initialize,
 * tools/list), sampled a few times.
 *
 * Run: pnpm bench (node --conditions=@askloop/source --no-node-snapshot bench/call.bench.ts)
 */
import { closeDefaultPool, createInterpreter } from '@askloop/interpreter';
import { createPolicy, createToolHost, createToolRegistry } from '@askloop/tools';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { measure, report, runSuite, sampleCount, suiteTable } from '../../../scripts/bench-harness.ts';
import { createMcpToolSource } from '../src/index.ts';
import { NODE, serverBin } from '../test/servers.ts';

const server = { command: NODE, args: [serverBin('everything'), 'stdio'] };

const client = new Client({ name: 'bench', version: '1.0.0' });
await client.connect(new StdioClientTransport({ ...server, stderr: 'ignore' }));

const source = createMcpToolSource({ servers: { everything: server } });
const registry = createToolRegistry(await source.toolPacks());
const policy = createPolicy({ allow: ['tool.everything.*'], grants: ['mcp:call:everything'] });
let turn = 0;
const program = 'command\n  emit tool.everything.echo("hi")\nendcommand\n';

await runSuite('One MCP call (server-everything echo over stdio)', { name: 'SDK client.callTool (baseline)', run: () => client.callTool({ name: 'echo', arguments: { message: 'hi' } }) }, [
  { name: 'tool host: host.call("tool.everything.echo")', run: () => createToolHost({ registry, policy, session: 'bench', turn: (turn += 1) }).call('tool.everything.echo', ['hi']) },
  {
    name: 'NeuroScript program with one MCP call (check + sandbox + host)',
    run: async () => {
      const tools = createToolHost({ registry, policy, session: 'bench', turn: (turn += 1) });
      const result = await createInterpreter().run(program, { tools });
      if (!result.ok) throw new Error(JSON.stringify(result.error));
    },
  },
], 'mcp.call');

const echo = await measure({ name: 'SDK client.callTool (baseline)', run: () => client.callTool({ name: 'echo', arguments: { message: 'hi' } }) }, { warmup: sampleCount(5, 1), minSamples: sampleCount(20, 3), minTimeMs: 0 });
const cold = await measure(
  {
    name: 'cold start: spawn + initialize + tools/list → packs',
    run: async () => {
      const fresh = createMcpToolSource({ servers: { everything: server } });
      await fresh.toolPacks();
      await fresh.close();
    },
  },
  { warmup: sampleCount(1, 0), minSamples: sampleCount(8, 1), minTimeMs: 0 },
);
report(suiteTable('stdio MCP server cold start', [echo, cold], echo, 'mcp.cold-start'));

await client.close();
await source.close();
await closeDefaultPool();
