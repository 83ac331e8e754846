/**
 * A Streamable HTTP server's answer is read at most 4 × maxResultBytes (at
 * least 10 MiB) a message, as a stdio server's is. The SDK read an HTTP
 * answer whole before `maxResultBytes` measured it: a server answering with
 * 64 MiB had all of it held in the host's memory (200 MB took the host to
 * 672 MB). The server here is MCP over HTTP written by hand on 127.0.0.1, so
 * it can stream an answer without end; it counts what it wrote before the
 * client hung up.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPolicy, createToolHost, createToolRegistry, type ToolHost } from '@askloop/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpToolSource, type McpToolSource } from '../src/index.ts';

const MIB = 1024 * 1024;
/** What a flooding answer would write in all, were it read to the end. */
const FLOOD_BYTES = 64 * MIB;
const TOOLS = ['flood_events', 'flood_json', 'small'].map((name) => ({ name, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }));

let http: Server;
let url: string;
/** Bytes each flooding answer wrote before the client closed it (or all of it). */
const written: number[] = [];

const reply = (id: unknown, result: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result });

/** Writes one answer of FLOOD_BYTES, in 1 MiB pieces as the client reads them, stopping when the client goes. */
async function flood(response: ServerResponse, id: unknown, events: boolean): Promise<void> {
  response.writeHead(200, { 'content-type': events ? 'text/event-stream' : 'application/json' });
  const piece = Buffer.alloc(MIB, 'x');
  let sent = 0;
  response.write(`${events ? 'data: ' : ''}{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"`);
  while (sent < FLOOD_BYTES && !response.destroyed) {
    sent += piece.length;
    if (!response.write(piece)) await Promise.race([once(response, 'drain'), once(response, 'close')]);
  }
  written.push(sent);
  if (!response.destroyed) response.end(`"}]}}${events ? '\n\n' : ''}`);
}

async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'POST') {
    response.writeHead(request.method === 'DELETE' ? 200 : 405).end();
    return;
  }
  let body = '';
  for await (const chunk of request) body += String(chunk);
  const message = JSON.parse(body) as { id?: unknown; method: string; params?: { name?: string; protocolVersion?: string } };
  if (message.id === undefined) {
    response.writeHead(202).end();
    return;
  }
  const json = (text: string) => response.writeHead(200, { 'content-type': 'application/json' }).end(text);
  if (message.method === 'initialize') return void json(reply(message.id, { protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'flooding', version: '1.0.0' } }));
  if (message.method === 'tools/list') return void json(reply(message.id, { tools: TOOLS }));
  const tool = message.params?.name;
  if (tool === 'small') return void json(reply(message.id, { content: [{ type: 'text', text: 'small' }] }));
  await flood(response, message.id, tool === 'flood_events');
}

let source: McpToolSource;
let host: ToolHost;

beforeAll(async () => {
  http = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  source = createMcpToolSource({ servers: { flooding: { url, timeoutMs: 20_000 } } });
  host = createToolHost({ registry: createToolRegistry(await source.toolPacks()), policy: createPolicy({ allow: ['tool.flooding.*'], grants: ['mcp:call:flooding'] }), session: 's', turn: 1 });
});

afterAll(async () => {
  await source.close();
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
});

/** The codes down an error's cause chain. */
const codes = (error: unknown): unknown[] => {
  const found: unknown[] = [];
  for (let cause = error; cause !== undefined && cause !== null; cause = (cause as Error).cause) found.push((cause as { code?: unknown }).code);
  return found;
};

describe("an HTTP server's answer past the limit", () => {
  it.each([
    ['a JSON answer', 'flood_json'],
    ['an event of an event stream', 'flood_events'],
  ])('%s: the client stops reading past 10 MiB and fails the call MCP_RESULT_TOO_LARGE; the next call connects again', async (_label, tool) => {
    const before = written.length;
    const failure = (await host.call(`tool.flooding.${tool}`, []).catch((error: unknown) => error)) as Error;
    expect(codes(failure)).toContain('MCP_RESULT_TOO_LARGE');
    await expect.poll(() => written.length).toBe(before + 1);
    // Socket buffers on both sides hold a few MiB more than the client read.
    expect(written.at(-1)).toBeLessThan(FLOOD_BYTES / 2);
    expect(failure.message).toContain(`MCP server 'flooding' tool '${tool}' sent an answer over ${10 * MIB} bytes, the most this client reads in one message from this server (4 × maxResultBytes, at least 10 MiB); the connection was closed (the next call connects again)`);
    expect(await host.call('tool.flooding.small', [])).toBe('small');
  });
});
