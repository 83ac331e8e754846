/**
 * A run that ends (here: its wall clock) cancels its pending tool calls, so
 * the command exits when the run does, not when the tool's own timeout fires
 * (issue: with --timeout-ms 1000 the result printed at 1.4 s but the process
 * lived until the http tool's 10 s timeout).
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnCli } from './spawn-cli.ts';

/** The http tool's own timeout (packs/http-tools.ts): the process must be gone well before it. */
const HTTP_TOOL_TIMEOUT_MS = 10_000;

const held: IncomingMessage[] = [];
const aborted: string[] = [];
/** When the server got the request: the time before it (the process starting, on a loaded machine seconds) is not the run's. */
let requestedAt = 0;
const server = createServer((request) => {
  // Never answer: the request stays pending until the client gives up.
  requestedAt = Date.now();
  held.push(request);
  request.socket.on('close', () => aborted.push(request.url ?? ''));
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  for (const request of held) request.socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('a run that ends cancels its pending tool calls', () => {
  it('ns run --timeout-ms: the slow http call is aborted and the process exits with the run', async () => {
    const { port } = server.address() as AddressInfo;
    const folder = await mkdtemp(join(tmpdir(), 'askloop-cancel-'));
    const file = join(folder, 'slow.ns');
    await writeFile(file, `command\n  emit "before"\n  set page = tool.http.Fetch("http://127.0.0.1:${port}/slow")\n  emit "after"\nendcommand\n`);
    const result = await spawnCli(['ns', 'run', file, '--http', '--allow', 'tool.http.*', '--grant', 'net:read:127.0.0.1', '--timeout-ms', '800', '--json']);
    const exitedAfterMs = Date.now() - requestedAt;
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ ok: false, emits: ['before'], error: { code: 'SCRIPT_TIMEOUT', kind: 'timeout' } });
    // The server saw the request go away: the call was cancelled, not left to time out.
    expect(aborted).toEqual(['/slow']);
    // Not a speed assertion: the process ended far sooner after the call began than the tool's own timeout, which it
    // would have waited for before (counted from the request, not the spawn: a loaded CI machine once took 5 s to start it).
    expect(exitedAfterMs).toBeLessThan(HTTP_TOOL_TIMEOUT_MS / 2);
  });
});
