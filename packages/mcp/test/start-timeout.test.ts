/**
 * A server's `startTimeoutMs` bounds its start: a stdio server that never
 * answers `initialize` (and ignores both the end of its stdin and SIGTERM),
 * and a Streamable HTTP server on 127.0.0.1 that never answers the POST, fail
 * with MCP_CONNECT_FAILED after startTimeoutMs instead of the SDK's 60 s; the
 * stdio child is gone by the time the error arrives. An unanswered tools/list
 * page fails after timeoutMs, the per-call timeout. `close()` during a start stops it at once.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpToolSource, type McpServerConfig } from '../src/index.ts';
import { NODE } from './servers.ts';

// Writes its pid, then reads stdin forever and survives its end and SIGTERM: only SIGKILL stops it.
const SILENT = `require('node:fs').writeFileSync(process.env.PID_FILE, String(process.pid)); process.on('SIGTERM', () => {}); process.stdin.resume(); setInterval(() => {}, 1000);`;

const LEAKY_SERVER = fileURLToPath(new URL('./fixtures/leaky-server.ts', import.meta.url));
let directory: string;
let http: Server;
let url: string;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'askloop-mcp-start-'));
  http = createServer(() => {
    // Never answers.
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
  rmSync(directory, { recursive: true, force: true });
});

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Waits until `check` holds, polling; false after `ms`. */
async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 25))) if (check()) return true;
  return check();
}

const silent = (pidFile: string, startTimeoutMs: number): McpServerConfig => ({ command: NODE, args: ['-e', SILENT], env: { PID_FILE: pidFile }, startTimeoutMs });

describe('starting a server within startTimeoutMs', () => {
  it('fails a stdio server that never answers initialize after startTimeoutMs, and has stopped it', async () => {
    const pidFile = join(directory, 'silent.pid');
    const source = createMcpToolSource({ servers: { silent: silent(pidFile, 500) } });
    try {
      const started = Date.now();
      const failure = await source.toolPacks().catch((error: unknown) => error);
      // 500 ms, then the SDK's close: stdin ended, 2 s, SIGTERM (ignored here), 2 s, SIGKILL.
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(failure).toMatchObject({ code: 'MCP_CONNECT_FAILED', server: 'silent', message: expect.stringContaining("MCP server 'silent' did not start: no answer to initialize within 500 ms (startTimeoutMs)") });
      const pid = Number(readFileSync(pidFile, 'utf8'));
      // SIGKILL was sent before the error; the exit is reaped asynchronously.
      expect(await until(() => !alive(pid), 2_000)).toBe(true);
      expect(source.status().silent).toMatchObject({ connected: false, starts: 1 });
      expect((failure as Error).message).not.toContain('fetching');
    } finally {
      await source.close();
    }
  }, 20_000);

  it('says a package runner (npx, uvx…) that timed out writing nothing may have been fetching its package', async () => {
    // A stand-in `npx` that stays silent, as npx does while it retries a registry it cannot reach.
    const runner = join(directory, 'npx');
    writeFileSync(runner, `#!/bin/sh\nexec ${JSON.stringify(NODE)} -e ${JSON.stringify(SILENT)}\n`);
    chmodSync(runner, 0o755);
    const source = createMcpToolSource({ servers: { fetched: { command: runner, args: ['-y', 'some-server'], env: { PID_FILE: join(directory, 'fetched.pid') }, startTimeoutMs: 500 } } });
    try {
      const failure = await source.toolPacks().catch((error: unknown) => error);
      expect(failure).toMatchObject({
        code: 'MCP_CONNECT_FAILED',
        message: expect.stringContaining(`the server was stopped. It wrote nothing: npx may still have been fetching the server's package (run the command by hand to see; pass the proxy or CA variables it needs, such as HTTPS_PROXY or NODE_EXTRA_CA_CERTS, in the server's "env", or raise startTimeoutMs)`),
      });
    } finally {
      await source.close();
    }
  }, 20_000);

  it('fails a Streamable HTTP server that never answers after startTimeoutMs', async () => {
    const source = createMcpToolSource({ servers: { mute: { url, startTimeoutMs: 500 } } });
    try {
      const started = Date.now();
      const failure = await source.toolPacks().catch((error: unknown) => error);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(failure).toMatchObject({ code: 'MCP_CONNECT_FAILED', message: expect.stringContaining('no answer to initialize within 500 ms') });
    } finally {
      await source.close();
    }
  }, 20_000);

  it('fails a tools/list that is not answered within timeoutMs, keeping the connection', async () => {
    const source = createMcpToolSource({ servers: { slow: { command: NODE, args: [LEAKY_SERVER], env: { LEAKY_MODE: 'hang-list' }, timeoutMs: 500 } } });
    try {
      const started = Date.now();
      const failure = await source.toolPacks().catch((error: unknown) => error);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(failure).toMatchObject({ code: 'MCP_LIST_FAILED', message: expect.stringContaining("MCP server 'slow' failed tools/list: no answer within 500 ms (timeoutMs)") });
      expect(source.status().slow).toMatchObject({ connected: true, starts: 1 });
    } finally {
      await source.close();
    }
  }, 20_000);

  it('stops a start in progress when the source is closed, and the start fails with MCP_CLOSED', async () => {
    const pidFile = join(directory, 'closed.pid');
    const source = createMcpToolSource({ servers: { silent: silent(pidFile, 60_000) } });
    const packs = source.toolPacks().catch((error: unknown) => error);
    expect(await until(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8') !== '', 10_000)).toBe(true);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    const started = Date.now();
    await source.close();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await packs).toMatchObject({ code: 'MCP_CLOSED', server: 'silent' });
    expect(await until(() => !alive(pid), 2_000)).toBe(true);
  }, 30_000);
});
