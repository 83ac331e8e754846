/**
 * The SDK's own Client drives `askloop mcp serve` over stdio, end to end: a
 * real askloop process (run from sources), the real sandbox and tools.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../main.ts';
import { captureIo } from '../../../test/capture-io.ts';

const CLI = fileURLToPath(new URL('../../cli.ts', import.meta.url));
let client: Client;

beforeAll(async () => {
  client = new Client({ name: 'serve-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--conditions=@askloop/source', CLI, 'mcp', 'serve', '--allow', 'tool.str.*', '--allow', 'tool.math.*', '--fuel', '5000'],
      stderr: 'pipe',
    }),
  );
});

afterAll(async () => {
  await client.close();
});

describe('askloop mcp serve (stdio)', () => {
  it('lists the NeuroScript tools and no ask tool without a controller', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['neuroscript_check', 'neuroscript_run']);
  });

  it('runs a program in the sandbox', async () => {
    const result = await client.callTool({ name: 'neuroscript_run', arguments: { program: 'command\n  emit tool.math.Add(2, 3)\n  emit tool.str.ToUpper("mcp")\nendcommand\n' } });
    expect(result.structuredContent).toMatchObject({ ok: true, emits: ['5', 'MCP'], error: null });
  });

  it('checks a program without running it', async () => {
    const result = await client.callTool({ name: 'neuroscript_check', arguments: { program: 'command\n  set x = \nendcommand\n' } });
    expect(result.structuredContent).toMatchObject({ ok: false, diagnostics: [{ code: 'SCRIPT_SYNTAX', line: 2 }] });
  });

  it('denies a tool the policy does not allow, before anything runs', async () => {
    const result = await client.callTool({ name: 'neuroscript_run', arguments: { program: 'command\n  emit "before"\n  emit tool.json.Stringify([1])\nendcommand\n' } });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ ok: false, emits: [], diagnostics: [{ code: 'SCRIPT_TOOL_DENIED' }] });
  });

  it('applies the --fuel quota', async () => {
    const result = await client.callTool({ name: 'neuroscript_run', arguments: { program: 'command\n  while true\n    set x = 1\n  endwhile\nendcommand\n' } });
    expect(result.structuredContent).toMatchObject({ ok: false, error: { code: 'SCRIPT_FUEL_EXHAUSTED', line: 3 } });
  });
});

describe('askloop mcp tools', () => {
  let directory: string;
  beforeAll(() => {
    directory = mkdtempSync(join(tmpdir(), 'askloop-mcp-cli-'));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('refuses a config file that is not valid, as a usage error', async () => {
    writeFileSync(join(directory, 'bad.json'), JSON.stringify({ servers: { 'bad-name': { command: 'x' } } }));
    const io = captureIo({ cwd: directory });
    expect(await main(['mcp', 'tools', '--mcp-config', 'bad.json'], io)).toBe(2);
    expect(io.err).toContain("server name 'bad-name'");
  });

  it('points at the field that is wrong, in JSON and in YAML', async () => {
    writeFileSync(join(directory, 'args.json'), JSON.stringify({ servers: { s: { command: 'npx', args: 'one-string' } } }, null, 2));
    const io = captureIo({ cwd: directory });
    expect(await main(['mcp', 'tools', '--mcp-config', 'args.json', '--json'], io)).toBe(2);
    expect(JSON.parse(io.out).error).toEqual({ code: 'CLI_OPTION_INVALID', message: '--mcp-config args.json: MCP config: servers.s.args must be a list of strings', file: 'args.json', line: 5, column: 15 });
    writeFileSync(join(directory, 'timeout.yaml'), 'servers:\n  s:\n    command: npx\n    timeoutMs: soon\n');
    const yaml = captureIo({ cwd: directory });
    expect(await main(['mcp', 'tools', '--mcp-config', 'timeout.yaml', '--json'], yaml)).toBe(2);
    expect(JSON.parse(yaml.out).error).toMatchObject({ line: 4, column: 16 });
  });

  it('reads a YAML config file (.yaml), and names a YAML syntax error', async () => {
    writeFileSync(join(directory, 'mcp.yaml'), ['servers:', '  self:', `    command: ${JSON.stringify(process.execPath)}`, `    args: ["--conditions=@askloop/source", ${JSON.stringify(CLI)}, "mcp", "serve"]`, '    timeoutMs: 5000', ''].join('\n'));
    const io = captureIo({ cwd: directory });
    expect(await main(['mcp', 'tools', '--mcp-config', 'mcp.yaml', '--json'], io)).toBe(0);
    expect((JSON.parse(io.out) as { name: string }[]).map((row) => row.name).sort()).toEqual(['tool.self.neuroscript_check', 'tool.self.neuroscript_run']);
    writeFileSync(join(directory, 'broken.yml'), 'servers:\n  self: [unclosed\n');
    const broken = captureIo({ cwd: directory });
    expect(await main(['mcp', 'tools', '--mcp-config', 'broken.yml'], broken)).toBe(2);
    expect(broken.err).toContain('--mcp-config broken.yml: not YAML');
  });

  it('lists the tools of a configured server (askloop serving itself over stdio) with their policy state', async () => {
    const config = { servers: { self: { command: process.execPath, args: ['--conditions=@askloop/source', CLI, 'mcp', 'serve'] } } };
    writeFileSync(join(directory, 'mcp.json'), JSON.stringify(config));
    const io = captureIo({ cwd: directory });
    expect(await main(['mcp', 'tools', '--mcp-config', 'mcp.json', '--allow', 'tool.self.neuroscript_check', '--grant', 'mcp:call:self', '--json'], io)).toBe(0);
    const rows = JSON.parse(io.out) as { name: string; allowed: boolean; requiresApproval: boolean }[];
    expect(rows).toEqual(
      expect.arrayContaining([
        { name: 'tool.self.neuroscript_check', pack: 'mcp.self', effect: 'read', requiresApproval: false, allowed: true },
        { name: 'tool.self.neuroscript_run', pack: 'mcp.self', effect: 'external', requiresApproval: true, allowed: false },
      ]),
    );
    // In text, each note once: the line marks the effect ([external]), the notes the approval and the policy.
    const text = captureIo({ cwd: directory });
    expect(await main(['mcp', 'tools', '--mcp-config', 'mcp.json', '--allow', 'tool.self.neuroscript_check', '--grant', 'mcp:call:self'], text)).toBe(0);
    const run = text.out.split('\n').find((line) => line.startsWith('tool.self.neuroscript_run('));
    expect(run).toMatch(/ \[external\] - .*  \[needs approval; denied: [^\]]+\]$/);
    expect(run?.match(/external/g)).toHaveLength(1);
    expect(text.out.split('\n').find((line) => line.startsWith('tool.self.neuroscript_check('))).toMatch(/  \[read\]$/);
  });
});

describe('withMcpTools (the ns run/check hook)', () => {
  it('adds the MCP tools to a tool setup, and leaves it alone without --mcp-config', async () => {
    const { buildToolSetup } = await import('../ns/tool-options.ts');
    const { withMcpTools } = await import('./load-mcp-config.ts');
    const directory = mkdtempSync(join(tmpdir(), 'askloop-mcp-hook-'));
    try {
      writeFileSync(join(directory, 'mcp.json'), JSON.stringify({ servers: { self: { command: process.execPath, args: ['--conditions=@askloop/source', CLI, 'mcp', 'serve'] } } }));
      const io = captureIo({ cwd: directory });
      const values = { allow: ['tool.self.*'], grant: ['mcp:call:self'], 'mcp-config': 'mcp.json' };
      const plain = await withMcpTools(buildToolSetup({}, io), {}, io);
      expect(plain.setup.registry.get('tool.self.neuroscript_check')).toBeUndefined();
      const mcp = await withMcpTools(buildToolSetup(values, io), values, io);
      try {
        expect(mcp.setup.registry.get('tool.str.ToUpper')).toBeDefined();
        expect(await mcp.setup.hostFor(1).call('tool.self.neuroscript_check', ['command\n  emit 1\nendcommand\n'])).toEqual({ ok: true, diagnostics: [] });
      } finally {
        await mcp.close();
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('askloop mcp serve --mcp-config', () => {
  it('refuses to serve when a configured server does not start, with its MCP code and exit 1, before reading a request', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'askloop-mcp-unstarted-'));
    try {
      writeFileSync(join(directory, 'broken.json'), JSON.stringify({ servers: { gone: { command: process.execPath, args: ['-e', 'process.exit(3)'] } } }));
      const io = captureIo({ cwd: directory });
      expect(await main(['mcp', 'serve', '--mcp-config', 'broken.json'], io)).toBe(1);
      expect(io.err).toMatch(/^askloop: --mcp-config broken.json: MCP server 'gone' did not start: .*\(MCP_CONNECT_FAILED\)\n$/);
      expect(io.out).toBe('');
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('lets programs sent by a client call the tools of configured MCP servers, under the grants', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'askloop-mcp-nested-'));
    writeFileSync(join(directory, 'mcp.json'), JSON.stringify({ servers: { inner: { command: process.execPath, args: ['--conditions=@askloop/source', CLI, 'mcp', 'serve', '--allow', 'tool.str.*'] } } }));
    const outer = new Client({ name: 'nested-test', version: '1.0.0' });
    await outer.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--conditions=@askloop/source', CLI, 'mcp', 'serve', '--mcp-config', 'mcp.json', '--allow', 'tool.inner.neuroscript_check', '--grant', 'mcp:call:inner'],
        cwd: directory,
        stderr: 'pipe',
      }),
    );
    try {
      const program = 'command\n  set report = tool.inner.neuroscript_check("command\\n  emit tool.str.Nope()\\nendcommand\\n")\n  emit report["diagnostics"][0]["code"]\nendcommand\n';
      const result = await outer.callTool({ name: 'neuroscript_run', arguments: { program } });
      expect(result.structuredContent).toMatchObject({ ok: true, emits: ['SCRIPT_TOOL_UNKNOWN'] });
      const denied = await outer.callTool({ name: 'neuroscript_run', arguments: { program: 'command\n  emit tool.inner.neuroscript_run("command\\n  emit 1\\nendcommand\\n")\nendcommand\n' } });
      expect(denied.structuredContent).toMatchObject({ ok: false, diagnostics: [{ code: 'SCRIPT_TOOL_DENIED' }] });
    } finally {
      await outer.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
