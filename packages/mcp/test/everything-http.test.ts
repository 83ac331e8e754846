/**
 * server-everything in its Streamable HTTP mode (stateful sessions), on
 * 127.0.0.1: listing and calls over HTTP, and reconnecting after the server
 * went away and came back.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createPolicy, createToolHost, createToolRegistry, type ToolPack } from '@askloop/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpToolSource, type McpToolSource } from '../src/index.ts';
import { NODE, serverBin } from './servers.ts';

const LOOPBACK_ONLY = fileURLToPath(new URL('./fixtures/loopback-only.ts', import.meta.url));
let port: number;
let server: ChildProcess;
let source: McpToolSource;

async function freePort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port: free } = probe.address() as { port: number };
  probe.close();
  await once(probe, 'close');
  return free;
}

async function startEverything(): Promise<ChildProcess> {
  const child = spawn(NODE, ['--import', LOOPBACK_ONLY, serverBin('everything'), 'streamableHttp'], { env: { PATH: process.env.PATH ?? '', PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('listening on port')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${stderr}`)));
  });
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGKILL');
  await once(child, 'exit');
}

beforeAll(async () => {
  port = await freePort();
  server = await startEverything();
  source = createMcpToolSource({ servers: { web: { url: `http://127.0.0.1:${port}/mcp`, timeoutMs: 5_000 } } });
});

afterAll(async () => {
  await source.close();
  await stop(server);
});

const policy = createPolicy({ allow: ['tool.web.*'], grants: ['mcp:call:web'] });
const hostFor = (packs: readonly ToolPack[], turn: number) => createToolHost({ registry: createToolRegistry(packs), policy, session: 'http', turn });

describe('server-everything over Streamable HTTP', () => {
  it('lists and calls tools over HTTP', async () => {
    const packs = await source.toolPacks();
    expect(packs[0]?.tools.map((tool) => tool.spec.displayName)).toContain('tool.web.get_sum');
    expect(await hostFor(packs, 1).call('tool.web.get_sum', [20, 22])).toBe('The sum of 20 and 22 is 42.');
  });

  it('fails a call while the server is down, then reconnects once it is back', async () => {
    const packs = await source.toolPacks();
    await stop(server);
    await expect(hostFor(packs, 2).call('tool.web.echo', ['down'])).rejects.toMatchObject({ code: 'TOOL_FAILED', message: expect.stringContaining("MCP server 'web'") });
    server = await startEverything();
    expect(await hostFor(packs, 3).call('tool.web.echo', ['back'])).toBe('Echo: back');
  });
});
