/**
 * `askloop ns tools|check|run --config FILE`: a plugin author tries their
 * tool pack with the `ns` commands, as the loop commands load it (the
 * commands used to refuse `--config`, and `--grant notes:…` named a resource
 * no tool they knew needs).
 */
import { createRequire } from 'node:module';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';

const PLUGIN = fileURLToPath(new URL('./fixtures/plugin-project/askloop-plugin-notes', import.meta.url));
const MEMORY_SERVER = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js');
const dir = mkdtempSync(join(tmpdir(), 'askloop-ns-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'node_modules'));
symlinkSync(PLUGIN, join(dir, 'node_modules', 'askloop-plugin-notes'), 'dir');
writeFileSync(join(dir, 'notes.yaml'), 'plugins:\n  - askloop-plugin-notes\n');
writeFileSync(join(dir, 'append.ns'), 'command\n  emit tool.notes.Append("todo", "buy milk")\nendcommand\n');

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = captureIo({ cwd: dir });
  const code = await main(args, io);
  return { code, out: io.out, err: io.err };
}

describe('ns commands with --config FILE', () => {
  it("ns tools lists the plugin's tools beside the built-in ones, with the policy's answer", async () => {
    const listed = await cli(['ns', 'tools', '--config', 'notes.yaml', '--allow', 'tool.notes.*', '--grant', 'notes:write', '--json']);
    expect(listed.code, listed.err).toBe(0);
    const rows = JSON.parse(listed.out) as { name: string; pack: string; allowed: boolean }[];
    expect(rows).toContainEqual(expect.objectContaining({ name: 'tool.notes.Append', pack: 'notes', allowed: true }));
    expect(rows.some((row) => row.name.startsWith('tool.str.'))).toBe(true);
  });

  it('ns check accepts a program calling the tool, and refuses it without --config as a tool it does not know', async () => {
    const checked = await cli(['ns', 'check', 'append.ns', '--config', 'notes.yaml', '--allow', 'tool.notes.*', '--grant', 'notes:write:todo']);
    expect(checked.code, checked.err).toBe(0);
    // The literal note is checked before anything runs: without its grant the check names the one to add.
    const ungranted = await cli(['ns', 'check', 'append.ns', '--config', 'notes.yaml', '--allow', 'tool.notes.*']);
    expect(ungranted.code).toBe(1);
    expect(`${ungranted.out}${ungranted.err}`).toContain('add the grant notes:write:todo to the policy');
    const unknown = await cli(['ns', 'check', 'append.ns', '--allow', 'tool.notes.*']);
    expect(unknown.code).toBe(1);
    expect(`${unknown.out}${unknown.err}`).toContain('SCRIPT_TOOL_UNKNOWN');
  });

  it('ns run calls it under a grant of its own resource (a --grant naming it used to be refused as unknown)', async () => {
    const ran = await cli(['ns', 'run', 'append.ns', '--config', 'notes.yaml', '--allow', 'tool.notes.*', '--grant', 'notes:write:todo']);
    expect(ran.code, ran.err).toBe(0);
    expect(ran.out).toBe('buy milk\n\n');
    const unknownResource = await cli(['ns', 'run', 'append.ns', '--allow', 'tool.notes.*', '--grant', 'notes:write:todo']);
    expect(unknownResource.code).toBe(2);
    expect(unknownResource.err).toContain("unknown resource 'notes'");
  });

  it("runs a program against the config's MCP servers (mcpServers), started and stopped by the command", async () => {
    writeFileSync(join(dir, 'memory.yaml'), `mcpServers:\n  memory:\n    command: ${JSON.stringify(process.execPath)}\n    args: [${JSON.stringify(MEMORY_SERVER)}]\n    env:\n      MEMORY_FILE_PATH: ${JSON.stringify(join(dir, 'memory.jsonl'))}\n`);
    writeFileSync(join(dir, 'graph.ns'), 'command\n  set graph = tool.memory.read_graph()\n  emit len(graph["entities"])\nendcommand\n');
    const ran = await cli(['ns', 'run', 'graph.ns', '--config', 'memory.yaml', '--allow', 'tool.memory.*', '--grant', 'mcp:call:memory']);
    expect(ran.code, ran.err).toBe(0);
    expect(ran.out).toBe('0\n');
  });

  it('a --config that is missing is the config error it is; the ns commands read no config they are not given', async () => {
    const missing = await cli(['ns', 'tools', '--config', 'nope.yaml']);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('CONFIG_UNREADABLE');
    writeFileSync(join(dir, 'askloop.config.yaml'), 'plugins:\n  - askloop-plugin-notes\n');
    try {
      const plain = await cli(['ns', 'tools', '--json']);
      expect((JSON.parse(plain.out) as { name: string }[]).map((row) => row.name)).not.toContain('tool.notes.Append');
    } finally {
      rmSync(join(dir, 'askloop.config.yaml'));
    }
  });
});
