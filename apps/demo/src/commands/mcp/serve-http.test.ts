/**
 * `askloop mcp serve --http 0`: a real askloop process serving Streamable
 * HTTP on 127.0.0.1, driven by the SDK's own Client over HTTP — a run, a
 * policy denial, the resources — and stopped by SIGTERM with exit code 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../../cli.ts', import.meta.url));
let child: ChildProcess;
let url: string;
let client: Client;

beforeAll(async () => {
  child = spawn(process.execPath, ['--conditions=@askloop/source', '--no-warnings', CLI, 'mcp', 'serve', '--http', '0', '--allow', 'tool.str.*'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  url = await new Promise<string>((resolve, reject) => {
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      stderr += text;
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+\/mcp)/.exec(stderr);
      if (found !== null) resolve(found[1] as string);
    });
    child.once('exit', (code) => reject(new Error(`askloop mcp serve exited (${code}): ${stderr}`)));
  });
  client = new Client({ name: 'serve-http-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
});

afterAll(async () => {
  await client?.close();
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
});

describe('askloop mcp serve --http (Streamable HTTP on loopback)', () => {
  it('listens on 127.0.0.1 and runs a program for an SDK client', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const result = await client.callTool({ name: 'neuroscript_run', arguments: { program: 'command\n  emit tool.str.ToUpper("over http")\nendcommand\n' } });
    expect(result.structuredContent).toMatchObject({ ok: true, emits: ['OVER HTTP'], error: null });
  });

  it('runs a program with libraries, returning emits and whispers', async () => {
    const library = 'func greet(needs who returns text) means\n  return tool.str.ToUpper("hello, " + who)\nendfunc\n';
    const program = 'command\n  emit greet("ada")\n  whisper "notes", "greeted"\nendcommand\n';
    const result = await client.callTool({ name: 'neuroscript_run', arguments: { program, libraries: [library] } });
    expect(result.structuredContent).toMatchObject({ ok: true, emits: ['HELLO, ADA'], whispers: { notes: 'greeted' }, error: null });
  });

  it('reports a run-time error with its line and column', async () => {
    const result = await client.callTool({ name: 'neuroscript_run', arguments: { program: 'command\n  emit "one"\n  fail "stop here"\nendcommand\n' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ ok: false, emits: ['one'], error: { line: 3, column: expect.any(Number) } });
  });

  it('refuses a tool outside the policy before anything runs, with the position', async () => {
    const result = await client.callTool({ name: 'neuroscript_run', arguments: { program: 'command\n  emit "before"\n  emit tool.math.Add(1, 2)\nendcommand\n' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ ok: false, emits: [], diagnostics: [{ code: 'SCRIPT_TOOL_DENIED', line: 3 }] });
  });

  it('serves the catalogue and the guide as resources', async () => {
    const catalogue = await client.readResource({ uri: 'askloop://catalogue' });
    expect(catalogue.contents[0]).toMatchObject({ text: expect.stringContaining('tool.str.ToUpper') });
    const guide = await client.readResource({ uri: 'askloop://guide/neuroscript' });
    expect(guide.contents[0]).toMatchObject({ text: expect.stringContaining('command') });
  });

  it('stops on SIGTERM with exit code 0', async () => {
    await client.close();
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });
});
