/**
 * The tool host as an interpreter run's bridge, with no signal of its own: a
 * run that ends while `tool.http.Fetch` waits on a server that never answers
 * cancels the fetch (the request's signal the interpreter passes on). Before,
 * only a host made with `signal` (the controller's, the MCP server's and
 * `ns run`'s) stopped the fetch; any other user of the interpreter left it
 * running until the tool's own timeout.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterpreter, createSandboxPool } from '@askloop/interpreter';
import { createHttpTools, createPolicy, createToolHost, createToolRegistry, type ToolHostOptions } from '@askloop/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const pool = createSandboxPool({ workers: 1 });
let server: Server;
let url: string;
/** Requests the server got, each with the time the client closed it (undefined while open). */
const requests: { closedAt: number | undefined }[] = [];

beforeAll(async () => {
  server = createServer((request: IncomingMessage) => {
    const seen: { closedAt: number | undefined } = { closedAt: undefined };
    requests.push(seen);
    // Never answers: only the client's abort ends the request.
    request.socket.on('close', () => (seen.closedAt = performance.now()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hang`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await pool.close();
});

const program = (target: string): string => `command\n  set r = tool.http.Fetch("${target}")\n  emit r\nendcommand\n`;

/** A tool host with the http tools (the fetch's own timeout 60 s) allowed to reach 127.0.0.1. */
function hostFor(extra: Partial<ToolHostOptions> = {}) {
  return createToolHost({
    registry: createToolRegistry([createHttpTools({ timeoutMs: 60_000 })]),
    policy: createPolicy({ allow: ['tool.http.*'], grants: ['net:read:127.0.0.1'] }),
    session: 's1',
    turn: 1,
    defaultTimeoutMs: 60_000,
    ...extra,
  });
}

describe('a run that ends cancels its tool host call (no host signal)', () => {
  it('a run timing out during http.Fetch aborts the fetch at once, not at the tool\'s 60 s timeout', async () => {
    requests.length = 0;
    const host = hostFor();
    const startedAt = performance.now();
    const result = await createInterpreter({ pool, limits: { wallMs: 500 } }).run(program(url), { tools: host });
    expect(result.error?.code).toBe('SCRIPT_TIMEOUT');
    await expect.poll(() => requests[0]?.closedAt, { timeout: 5_000 }).toBeDefined();
    expect((requests[0]?.closedAt as number) - startedAt).toBeLessThan(10_000);
    expect(host.log()).toEqual([expect.objectContaining({ tool: 'tool.http.fetch', outcome: 'error', code: 'TOOL_CANCELLED' })]);
  });

  it('a run the caller aborts during http.Fetch aborts the fetch', async () => {
    requests.length = 0;
    const host = hostFor();
    const cancel = new AbortController();
    const running = createInterpreter({ pool, limits: { wallMs: 30_000 } }).run(program(url), { tools: host, signal: cancel.signal });
    await expect.poll(() => requests.length, { timeout: 10_000 }).toBe(1);
    cancel.abort();
    expect((await running).error?.code).toBe('SCRIPT_ABORTED');
    await expect.poll(() => requests[0]?.closedAt, { timeout: 5_000 }).toBeDefined();
    expect(host.log()).toEqual([expect.objectContaining({ outcome: 'error', code: 'TOOL_CANCELLED' })]);
  });

  it("a host's own signal still cancels a call while the run goes on (the controller's abort)", async () => {
    requests.length = 0;
    const hostEnded = new AbortController();
    const host = hostFor({ signal: hostEnded.signal });
    const running = createInterpreter({ pool, limits: { wallMs: 30_000 } }).run(program(url), { tools: host });
    await expect.poll(() => requests.length, { timeout: 10_000 }).toBe(1);
    hostEnded.abort(new Error('the turn ended'));
    const result = await running;
    await expect.poll(() => requests[0]?.closedAt, { timeout: 5_000 }).toBeDefined();
    expect(host.log()).toEqual([expect.objectContaining({ outcome: 'error', code: 'TOOL_CANCELLED' })]);
    // The run was not over: the script saw the call fail, with the host's reason.
    expect(result.error?.code).toBe('SCRIPT_TOOL_ERROR');
    expect(result.error?.message).toContain('[TOOL_CANCELLED] tool.http.Fetch was cancelled because the run ended: the turn ended');
  });
});
