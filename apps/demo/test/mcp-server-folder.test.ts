/**
 * A stdio MCP server starts in its `cwd` relative to the folder of the file
 * that names it (`--mcp-config FILE`, `mcpServers:` of askloop.config.yaml),
 * or in that folder: its relative paths then mean the same wherever the
 * command is typed, so a printed next step pasted elsewhere acts on the same
 * files. Regression: the server started in the folder the command was typed
 * in, and a `cwd` that does not exist failed as `spawn … ENOENT`.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';

const FIXTURE_SERVER = fileURLToPath(new URL('./fixtures/mcp-fixture-server.ts', import.meta.url));
const top = realpathSync(mkdtempSync(join(tmpdir(), 'askloop-mcp-folder-')));
afterAll(() => rmSync(top, { recursive: true, force: true }));
const project = join(top, 'project');
const elsewhere = join(top, 'elsewhere');
mkdirSync(join(project, 'data'), { recursive: true });
mkdirSync(elsewhere);
writeFileSync(join(elsewhere, 'where.ns'), 'command\n  emit tool.here.where()\n  emit tool.data.where()\nendcommand\n');
const servers = { here: { command: process.execPath, args: [FIXTURE_SERVER] }, data: { command: process.execPath, args: [FIXTURE_SERVER], cwd: 'data' } };

async function nsRun(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo({ cwd: elsewhere });
  const code = await main(['ns', 'run', 'where.ns', '--allow', 'tool.here.*', '--allow', 'tool.data.*', '--grant', 'mcp:call', ...args], io);
  return { code, out: io.out, err: io.err };
}

describe('the folder an MCP server starts in', () => {
  it("--mcp-config FILE: the file's folder, and cwd relative to it, typed from another folder", async () => {
    writeFileSync(join(project, 'mcp.json'), JSON.stringify({ servers }));
    const ran = await nsRun(['--mcp-config', join(project, 'mcp.json')]);
    expect(ran.code, ran.err).toBe(0);
    expect(ran.out.trim().split('\n')).toEqual([project, join(project, 'data')]);
  });

  it("mcpServers: in askloop.config.yaml given with --config: the config's folder", async () => {
    writeFileSync(join(project, 'askloop.config.yaml'), `mcpServers:\n  here:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(FIXTURE_SERVER)}]\n  data:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(FIXTURE_SERVER)}]\n    cwd: data\n`);
    const ran = await nsRun(['--config', join(project, 'askloop.config.yaml')]);
    expect(ran.code, ran.err).toBe(0);
    expect(ran.out.trim().split('\n')).toEqual([project, join(project, 'data')]);
  });

  it('says a ~/ cwd is read under the home folder', async () => {
    writeFileSync(join(project, 'home.json'), JSON.stringify({ servers: { here: { command: process.execPath, args: [FIXTURE_SERVER], cwd: '~/nope' } } }));
    const io = captureIo({ cwd: elsewhere });
    io.env = { HOME: top };
    expect(await main(['ns', 'run', 'where.ns', '--mcp-config', join(project, 'home.json'), '--allow', 'tool.here.*', '--grant', 'mcp:call', '--json'], io)).toBe(2);
    expect(JSON.parse(io.out).error.message).toContain(`servers.here cwd: no folder ${join(top, 'nope')} ('~/nope', under your home folder)`);
  });

  it('names a cwd that does not exist before any server starts', async () => {
    writeFileSync(join(project, 'missing.json'), JSON.stringify({ servers: { here: { command: process.execPath, args: [FIXTURE_SERVER], cwd: 'nope' } } }));
    const ran = await nsRun(['--mcp-config', join(project, 'missing.json'), '--json']);
    expect(ran.code).toBe(2);
    expect(JSON.parse(ran.out).error).toMatchObject({ code: 'CLI_OPTION_INVALID', message: expect.stringContaining(`servers.here cwd: no folder ${join(project, 'nope')} ('nope', relative to the folder of the file that names the server)`) });
  });
});

describe("a server's tool named as a built-in one (a server called str with a ToUpper)", () => {
  const file = join(project, 'dup.json');
  writeFileSync(file, JSON.stringify({ servers: { str: { command: process.execPath, args: [FIXTURE_SERVER], env: { EXTRA_TOOL: 'ToUpper' } } } }));
  writeFileSync(join(elsewhere, 'upper.ns'), 'command\n  emit tool.str.ToUpper("x")\nendcommand\n');

  it.each([
    ['mcp tools', ['mcp', 'tools', '--mcp-config', file, '--json']],
    ['ns run', ['ns', 'run', 'upper.ns', '--mcp-config', file, '--json']],
    ['mcp serve', ['mcp', 'serve', '--mcp-config', file]],
  ])('%s refuses it at once with TOOL_DUPLICATE (exit 1)', async (_, args) => {
    const io = captureIo({ cwd: elsewhere });
    expect(await main(args, io)).toBe(1);
    const said = `${io.out}${io.err}`;
    expect(said).toContain('TOOL_DUPLICATE');
    expect(said).toContain(`--mcp-config ${file}: tool.str.ToUpper from pack 'mcp.str' is already registered by pack 'str'; give the server another name in the file`);
  });
});
