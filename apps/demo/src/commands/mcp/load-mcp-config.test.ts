/**
 * `--mcp-config` in `ns check` and `ns run`: MCP tools are checked like
 * built-in ones before anything runs, and called while the program runs.
 * The MCP server is askloop itself (`askloop mcp serve`, from sources).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AskLoopMcpError, type McpToolSource } from '@askloop/mcp';
import { main } from '../../main.ts';
import { firstListing } from './load-mcp-config.ts';
import { captureIo } from '../../../test/capture-io.ts';

const CLI = fileURLToPath(new URL('../../cli.ts', import.meta.url));
let directory: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'askloop-ns-mcp-'));
  writeFileSync(join(directory, 'mcp.json'), JSON.stringify({ servers: { inner: { command: process.execPath, args: ['--conditions=@askloop/source', CLI, 'mcp', 'serve', '--allow', 'tool.math.*'] } } }));
  writeFileSync(join(directory, 'use.ns'), 'command\n  emit "start"\n  set report = tool.inner.neuroscript_run("command\\n  emit tool.math.Add(40, 2)\\nendcommand\\n")\n  emit report["emits"][0]\nendcommand\n');
});

afterAll(() => rmSync(directory, { recursive: true, force: true }));

const grants = ['--allow', 'tool.inner.*', '--grant', 'mcp:call:inner'];

describe('ns check --mcp-config', () => {
  it('checks calls of MCP tools against the catalogue and the grants', async () => {
    const allowed = captureIo({ cwd: directory });
    expect(await main(['ns', 'check', 'use.ns', '--mcp-config', 'mcp.json', ...grants], allowed)).toBe(0);
    const denied = captureIo({ cwd: directory });
    expect(await main(['ns', 'check', 'use.ns', '--mcp-config', 'mcp.json', '--allow', 'tool.inner.*'], denied)).toBe(1);
    expect(denied.out).toContain('SCRIPT_TOOL_DENIED');
    expect(denied.out).toContain('add the grant mcp:call:inner to the policy');
  });
});

describe('ns run --mcp-config', () => {
  it('runs a program that calls an MCP server', async () => {
    const io = captureIo({ cwd: directory });
    expect(await main(['ns', 'run', 'use.ns', '--mcp-config', 'mcp.json', ...grants], io)).toBe(0);
    expect(io.out).toBe('start\n42\n');
  });

  it('runs nothing when an MCP call is not granted', async () => {
    const io = captureIo({ cwd: directory });
    expect(await main(['ns', 'run', 'use.ns', '--mcp-config', 'mcp.json', '--allow', 'tool.inner.*'], io)).toBe(1);
    expect(io.out).toBe('');
    expect(io.err).toContain('SCRIPT_TOOL_DENIED');
  });

  it('reports a server that does not start with its MCP code and exit 1, naming it: the command line was right', async () => {
    writeFileSync(join(directory, 'broken.json'), JSON.stringify({ servers: { gone: { command: process.execPath, args: ['-e', 'process.exit(3)'] } } }));
    const io = captureIo({ cwd: directory });
    expect(await main(['ns', 'run', 'use.ns', '--mcp-config', 'broken.json'], io)).toBe(1);
    expect(io.err).toMatch(/^askloop: --mcp-config broken.json: MCP server 'gone' did not start: .*\(MCP_CONNECT_FAILED\)\n$/);
    expect(io.err).not.toContain('--help');
    const json = captureIo({ cwd: directory });
    expect(await main(['ns', 'check', 'use.ns', '--mcp-config', 'broken.json', '--json'], json)).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ ok: false, error: { code: 'MCP_CONNECT_FAILED', message: expect.stringContaining("MCP server 'gone' did not start") } });
  });
});

describe('firstListing', () => {
  it("reports a server's failure with its MCP code, anything else about the servers as a bad --mcp-config, and stops the servers either way", async () => {
    let closed = 0;
    const source = { close: async () => void (closed += 1) } as unknown as McpToolSource;
    const mcpFailure = new AskLoopMcpError('MCP_CONNECT_FAILED', "MCP server 'gone' did not start");
    await expect(firstListing(source, 'm.json', () => Promise.reject(mcpFailure))).rejects.toMatchObject({ code: 'MCP_CONNECT_FAILED', exitCode: 1, message: "--mcp-config m.json: MCP server 'gone' did not start" });
    await expect(firstListing(source, 'm.json', () => Promise.reject(new Error("two packs define 'tool.str.ToUpper'")))).rejects.toMatchObject({ code: 'CLI_OPTION_INVALID', exitCode: 2, message: "--mcp-config m.json: two packs define 'tool.str.ToUpper'" });
    expect(closed).toBe(2);
    expect(await firstListing(source, 'm.json', async () => 'listed')).toBe('listed');
  });
});
