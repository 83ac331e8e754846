/**
 * `--mcp-config FILE` fills `${NAME}` references in a server's `env` and
 * `headers` from the environment, as `mcpServers:` in askloop.config.yaml
 * does: a Streamable HTTP server on 127.0.0.1 that answers only the right
 * bearer token (and echoes a wrong one in its 401 body, as OpenAI-style APIs
 * do) is reached with the token from the environment, a missing variable is
 * a usage error naming it, and a refused token never reaches the output.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';

const TOKEN = 'tok-SUPERSECRET-98765';
let directory: string;
let http: Server;

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'askloop-mcp-env-'));
  http = createServer((request, response) => {
    const auth = request.headers.authorization ?? '';
    if (auth !== `Bearer ${TOKEN}`) {
      response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `Incorrect API key provided: ${auth.replace('Bearer ', '')}` } }));
      return;
    }
    const server = new McpServer({ name: 'guarded', version: '1.0.0' });
    server.registerTool('whoami', { description: 'Says who you are.', annotations: { readOnlyHint: true } }, () => ({ content: [{ type: 'text', text: 'an authorized client' }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    void server.connect(transport).then(() => transport.handleRequest(request, response));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
  writeFileSync(join(directory, 'mcp.json'), JSON.stringify({ servers: { t: { url, headers: { Authorization: 'Bearer ${MY_TOKEN}' } } } }));
  writeFileSync(join(directory, 'mcp.yaml'), `servers:\n  t:\n    url: ${url}\n    headers: { Authorization: "Bearer \${MY_TOKEN}" }\n`);
});

afterAll(async () => {
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
  rmSync(directory, { recursive: true, force: true });
});

const withEnv = (env: Record<string, string>) => Object.assign(captureIo({ cwd: directory }), { env });
const tools = (file: string) => ['mcp', 'tools', '--mcp-config', file, '--allow', 'tool.t.*', '--grant', 'mcp:call:t', '--json'];

describe('--mcp-config ${NAME} references', () => {
  it.each(['mcp.json', 'mcp.yaml'])('sends the header with the variable filled in (%s)', async (file) => {
    const io = withEnv({ MY_TOKEN: TOKEN });
    expect(await main(tools(file), io), io.err).toBe(0);
    expect(JSON.parse(io.out)).toEqual([{ name: 'tool.t.whoami', pack: 'mcp.t', effect: 'read', requiresApproval: false, allowed: true }]);
  });

  it.each(['json', 'yaml'])('refuses a key written into the file (%s), at its line, as the YAML config does, starting nothing', async (format) => {
    const file = `literal.${format}`;
    const literal = { servers: { t: { url: 'http://127.0.0.1:1/mcp', headers: { Authorization: 'Bearer supersecretvalue123' } } } };
    writeFileSync(join(directory, file), format === 'json' ? JSON.stringify(literal, null, 2) : 'servers:\n  t:\n    url: http://127.0.0.1:1/mcp\n    headers:\n      Authorization: Bearer supersecretvalue123\n');
    const io = withEnv({});
    expect(await main(tools(file), io)).toBe(2);
    const { error } = JSON.parse(io.out) as { error: { code: string; message: string; line: number } };
    expect(error).toMatchObject({ code: 'CLI_OPTION_INVALID', message: expect.stringContaining("'Authorization' looks like a key"), line: format === 'json' ? 6 : 5 });
    // What to write instead, with the header's scheme (it named the providers' variables, which a header has nothing to do with).
    expect(error.message).toContain("Set a variable of your own (TRACKER_TOKEN, say) in the environment instead, and write 'Bearer ${NAME}' here to pass it on");
    expect(io.out + io.err).not.toContain('supersecretvalue123');
  });

  it('refuses a missing variable by name, before starting anything', async () => {
    const io = withEnv({});
    expect(await main(tools('mcp.json'), io)).toBe(2);
    // With --json, the JSON envelope on standard output, as every --json command reports its errors.
    expect(JSON.parse(io.out)).toEqual({ ok: false, error: { code: 'CLI_OPTION_INVALID', message: '--mcp-config mcp.json: servers.t needs the environment variable MY_TOKEN; set it before running' } });
  });

  it('refuses a reference outside env and headers, naming the field, as the YAML config does', async () => {
    writeFileSync(join(directory, 'args.json'), JSON.stringify({ servers: { s: { command: 'npx', args: ['server', '--key=${MY_TOKEN}'] } } }));
    const io = withEnv({ MY_TOKEN: TOKEN });
    expect(await main(tools('args.json'), io)).toBe(2);
    expect(JSON.parse(io.out)).toEqual({
      ok: false,
      error: { code: 'CLI_OPTION_INVALID', message: '--mcp-config args.json: servers.s args[1] holds ${MY_TOKEN}, which is filled in only in env and headers; pass the value to the server in env (most servers read their key from the environment)' },
    });
  });

  it('never prints a refused token, even when the server echoes it', async () => {
    const io = withEnv({ MY_TOKEN: 'tok-WRONG-0123456789' });
    expect(await main(tools('mcp.json'), io)).toBe(1);
    const { ok, error } = JSON.parse(io.out) as { ok: boolean; error: { code: string; message: string } };
    expect(ok).toBe(false);
    expect(error.code).toMatch(/^MCP_/);
    expect(error.message).toContain("MCP server 't' did not start");
    expect(error.message).toContain('[REDACTED]');
    expect(io.out + io.err).not.toContain('tok-WRONG-0123456789');
    // Without --json, one line on standard error ending with the same code, as every text-mode error line does.
    const text = withEnv({ MY_TOKEN: 'tok-WRONG-0123456789' });
    expect(await main(tools('mcp.json').filter((arg) => arg !== '--json'), text)).toBe(1);
    expect(text.err).toMatch(new RegExp(`^askloop mcp tools: MCP server 't' did not start.* \\(${error.code}\\)\n$`));
    expect(text.out + text.err).not.toContain('tok-WRONG-0123456789');
  });
});
