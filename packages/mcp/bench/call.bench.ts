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
import { formatTable, measure, runSuite } from '../../../scripts/bench-harness.ts';
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

await runSuite('one MCP call (server-everything echo over stdio)', { name: 'SDK client.callTool (baseline)', run: () => client.callTool({ name: 'echo', arguments: { message: 'hi' } }) }, [
  { name: 'tool host: host.call("tool.everything.echo")', run: () => createToolHost({ registry, policy, session: 'bench', turn: (turn += 1) }).call('tool.everything.echo', ['hi']) },
  {
    name: 'NeuroScript program with one MCP call (check + sandbox + host)',
    run: async () => {
      const tools = createToolHost({ registry, policy, session: 'bench', turn: (turn += 1) });
      const result = await createInterpreter().run(program, { tools });
      if (!result.ok) throw new Error(JSON.stringify(result.error));
    },
  },
]);

const echo = await measure({ name: 'SDK client.callTool (baseline)', run: () => client.callTool({ name: 'echo', arguments: { message: 'hi' } }) }, { warmup: 5, minSamples: 20, minTimeMs: 0 });
const cold = await measure(
  {
    name: 'cold start: spawn + initialize + tools/list → packs',
    run: async () => {
      const fresh = createMcpToolSource({ servers: { everything: server } });
      await fresh.toolPacks();
      await fresh.close();
    },
  },
  { warmup: 1, minSamples: 8, minTimeMs: 0 },
);
console.log(`\n### stdio server cold start\n\n${formatTable([echo, cold], echo)}\n`);

await client.close();
await source.close();
await closeDefaultPool();
