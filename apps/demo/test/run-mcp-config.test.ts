/**
 * `askloop run --mcp-config FILE` and the commands that continue its session
 * (`approve`, `replay`): a scripted agent whose turns call the real
 * server-memory from the registry; its destructive tool pauses the session,
 * `approve` (given the same file) runs it, and the replay matches.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../src/main.ts';
import { captureIo } from './capture-io.ts';
import { envelope } from './envelope-reply.ts';
import { tempFolder, writeFiles } from './temp-folder.ts';

const MEMORY_SERVER = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js');
const directory = tempFolder('run-mcp');
const memoryFile = join(directory, 'memory.jsonl');
writeFiles(directory, {
  'mcp.json': JSON.stringify({ servers: { memory: { command: process.execPath, args: [MEMORY_SERVER], env: { MEMORY_FILE_PATH: memoryFile } } } }),
  'replies.json': JSON.stringify([
    envelope('call tool.memory.create_entities([{"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}])', 'set graph = tool.memory.read_graph()', 'emit graph["entities"][0]["name"]'),
    envelope('call tool.memory.delete_entities(["Ada"])', 'emit "<<<LOOP:DONE>>> forgot Ada"'),
  ]),
});

const memory = (): string => (existsSync(memoryFile) ? readFileSync(memoryFile, 'utf8') : '');
const common = ['--script', 'replies.json', '--db', 'sessions.db', '--json'];

describe('askloop run --mcp-config', () => {
  it('runs turns that call an MCP server, pauses its destructive tool, and approve (same file) finishes it; the replay matches', async () => {
    const run = captureIo({ cwd: directory });
    const code = await main(['run', 'remember Ada, then forget her', '--mcp-config', 'mcp.json', '--allow', 'tool.memory.*', '--grant', 'mcp:call:memory', ...common], run);
    const paused = JSON.parse(run.out) as { status: string; reason: string; sid: string; turns: number };
    expect({ code, status: paused.status, reason: paused.reason, turns: paused.turns }).toEqual({ code: 4, status: 'PAUSED', reason: 'AWAITING_APPROVAL', turns: 1 });
    // The first turn ran; the paused program has not.
    expect(memory()).toContain('"Ada"');

    const approve = captureIo({ cwd: directory });
    expect(await main(['approve', paused.sid, '--mcp-config', 'mcp.json', ...common], approve)).toBe(0);
    expect(JSON.parse(approve.out)).toMatchObject({ status: 'DONE', result: 'forgot Ada', turns: 2 });
    expect(memory()).not.toContain('"Ada"');

    const replay = captureIo({ cwd: directory });
    expect(await main(['replay', paused.sid, '--mcp-config', 'mcp.json', '--db', 'sessions.db', '--json'], replay)).toBe(0);
    expect(JSON.parse(replay.out)).toMatchObject({ matched: true, turns: 2 });
  });

  it('refuses the MCP calls of a run without the grant, before anything runs', async () => {
    const io = captureIo({ cwd: directory });
    const before = memory();
    const code = await main(['run', 'remember Ada', '--mcp-config', 'mcp.json', '--allow', 'tool.memory.*', '--script', 'replies.json', '--db', 'denied.db', '--json'], io);
    expect(code).toBe(3);
    expect(JSON.parse(io.out)).toMatchObject({ status: 'HALT', reason: 'ERR_PERMISSIONS' });
    expect(memory()).toBe(before);
  });

  it('names a config file that cannot be read', async () => {
    const io = captureIo({ cwd: directory });
    expect(await main(['run', 'x', '--mcp-config', 'missing.json', ...common], io)).toBe(2);
    expect(io.out + io.err).toContain('--mcp-config missing.json');
  });
});
