/**
 * `askloop mcp serve` over stdio, stopped by SIGTERM or SIGINT, closes the MCP
 * servers behind its tools, as a client's disconnect does. Regression: the
 * process died at the signal and a server that does not exit when its stdin
 * closes lived on, orphaned.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'askloop-serve-signal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// An MCP server over stdio that writes its pid and does not exit when its stdin closes (a timer keeps it alive).
const FOREVER = `
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { writeFileSync } from 'node:fs';
writeFileSync(process.argv[2], String(process.pid));
const server = new McpServer({ name: 'forever', version: '1.0.0' });
server.registerTool('ping', { description: 'pong', annotations: { readOnlyHint: true } }, async () => ({ content: [{ type: 'text', text: 'pong' }] }));
await server.connect(new StdioServerTransport());
setInterval(() => {}, 1000);
`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('askloop mcp serve (stdio) stopped by a signal', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('%s: exits 0 and the MCP server behind its tools is gone', async (signal) => {
    const script = join(dir, 'forever.mjs');
    // Beside the SDK the repository installs, so its import resolves.
    const sdkScript = fileURLToPath(new URL(`../forever-${signal}.tmp.mjs`, import.meta.url));
    writeFileSync(sdkScript, FOREVER);
    const pidFile = join(dir, `pid-${signal}`);
    writeFileSync(join(dir, 'mcp.json'), JSON.stringify({ servers: { fv: { command: process.execPath, args: [sdkScript, pidFile] } } }));
    try {
      const serve = spawn(process.execPath, ['--conditions=@askloop/source', '--no-node-snapshot', CLI, 'mcp', 'serve', '--mcp-config', join(dir, 'mcp.json'), '--allow', 'tool.fv.*', '--grant', 'mcp:call:fv'], { stdio: ['pipe', 'pipe', 'pipe'] });
      const exited = new Promise<number | null>((resolve) => serve.once('exit', (code) => resolve(code)));
      const send = (message: object): void => void serve.stdin.write(`${JSON.stringify(message)}\n`);
      let output = '';
      serve.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'neuroscript_run', arguments: { program: 'command\n  emit tool.fv.ping()\nendcommand\n' } } });
      while (!output.includes('"id":2')) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(output).toContain('pong');
      const pid = Number(readFileSync(pidFile, 'utf8'));
      expect(alive(pid)).toBe(true);
      serve.kill(signal);
      expect(await exited).toBe(0);
      // No timing asserted: were it orphaned, this would outlive the test's timeout.
      while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(alive(pid)).toBe(false);
    } finally {
      rmSync(sdkScript, { force: true });
    }
  }, 30_000);
});
