/**
 * `askloop mcp serve --agent FILE --script FILE --mcp-config FILE`, driven by
 * the SDK's own Client over stdio: the `ask` tool runs a whole controller
 * loop with the named agent (a scripted model), whose program calls the real
 * server-memory from the registry; an agent whose policy lacks the grant is
 * stopped by the check with nothing run.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../main.ts';
import { captureIo } from '../../../test/capture-io.ts';
import { envelope } from '../../../test/envelope-reply.ts';

const CLI = fileURLToPath(new URL('../../cli.ts', import.meta.url));
const MEMORY_SERVER = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js');
let directory: string;
let memoryFile: string;
let client: Client;

/** A v4 envelope around one command block. */
beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'askloop-serve-ask-'));
  memoryFile = join(directory, 'memory.jsonl');
  writeFileSync(join(directory, 'mcp.json'), JSON.stringify({ servers: { memory: { command: process.execPath, args: [MEMORY_SERVER], env: { MEMORY_FILE_PATH: memoryFile } } } }));
  writeFileSync(
    join(directory, 'notes.yaml'),
    ['name: notes', 'model: scripted:notes', 'description: keeps notes in the memory server', 'policy:', '  allow: ["tool.memory.*", "tool.str.*"]', '  grants: ["mcp:call:memory"]', ''].join('\n'),
  );
  writeFileSync(join(directory, 'strict.json'), JSON.stringify({ name: 'strict', model: 'scripted:strict', policy: { allow: ['tool.memory.*'] } }));
  writeFileSync(join(directory, 'cleaner.json'), JSON.stringify({ name: 'cleaner', model: 'scripted:cleaner', policy: { allow: ['tool.memory.*'], grants: ['mcp:call:memory'] } }));
  writeFileSync(
    join(directory, 'replies.json'),
    JSON.stringify({
      notes: [
        envelope('call tool.memory.create_entities([{"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}])', 'set graph = tool.memory.read_graph()', 'emit graph["entities"][0]["name"]'),
        envelope('emit "<<<LOOP:DONE>>> " + tool.str.ToUpper("remembered")'),
      ],
      // No mcp:call:memory grant: the check refuses the call, so create_entities never runs.
      strict: [envelope('call tool.memory.create_entities([{"name": "Eve", "entityType": "person", "observations": []}])', 'emit "<<<LOOP:DONE>>> done"')],
      // delete_entities is destructive: the loop pauses for a person, which an MCP client cannot be.
      cleaner: [envelope('call tool.memory.delete_entities(["Ada"])', 'emit "<<<LOOP:DONE>>> cleaned"')],
    }),
  );
  client = new Client({ name: 'serve-ask-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--conditions=@askloop/source', CLI, 'mcp', 'serve', '--mcp-config', 'mcp.json', '--agent', 'notes.yaml', '--agent', 'strict.json', '--agent', 'cleaner.json', '--script', 'replies.json'],
      cwd: directory,
      stderr: 'pipe',
    }),
  );
});

afterAll(async () => {
  await client.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('askloop mcp serve --agent (the ask tool)', () => {
  it('lists ask with the agents it knows', async () => {
    const { tools } = await client.listTools();
    const ask = tools.find((tool) => tool.name === 'ask');
    expect(ask?.description).toContain('notes (keeps notes in the memory server)');
    expect(ask?.description).toContain('strict');
  });

  it('runs a whole ask loop with the named agent, whose turns call a real MCP server', async () => {
    const result = await client.callTool({ name: 'ask', arguments: { agent: 'notes', task: 'remember Ada' } });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ status: 'DONE', reason: null, result: 'REMEMBERED', turns: 2 });
    expect(readFileSync(memoryFile, 'utf8')).toContain('"Ada"');
  });

  it('stops an agent whose policy does not grant the MCP server, before anything runs', async () => {
    const result = await client.callTool({ name: 'ask', arguments: { agent: 'strict', task: 'remember Eve' } });
    // Why, as well: the decision's words and the failing turn's code, message, line and column (not the ACTIONS line).
    const denial = "Tool 'tool.memory.create_entities' is not allowed here (POLICY_CAPABILITY_MISSING): tool.memory.create_entities needs capability mcp:call:memory — add the grant mcp:call:memory to the policy";
    expect(result.structuredContent).toEqual({
      status: 'HALT',
      reason: 'ERR_PERMISSIONS',
      result: null,
      turns: 1,
      message: `SCRIPT_TOOL_DENIED: ${denial}`,
      failure: { code: 'SCRIPT_TOOL_DENIED', message: denial, line: 2, column: 8 },
    });
    expect(existsSync(memoryFile) ? readFileSync(memoryFile, 'utf8') : '').not.toContain('"Eve"');
  });

  it('returns a loop that waits for approval as PAUSED, with nothing of the program run', async () => {
    const result = await client.callTool({ name: 'ask', arguments: { agent: 'cleaner', task: 'forget Ada' } });
    expect(result.structuredContent).toEqual({
      status: 'PAUSED',
      reason: 'AWAITING_APPROVAL',
      result: null,
      turns: 0,
      message: "the program calls tool.memory.delete_entities, which needs a person's approval before the program runs",
    });
    expect(readFileSync(memoryFile, 'utf8')).toContain('"Ada"');
  });

  it('answers an unknown agent with a tool error naming the agents there are', async () => {
    const result = await client.callTool({ name: 'ask', arguments: { agent: 'nobody', task: 'x' } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: expect.stringContaining("[LOOP_AGENT_NOT_FOUND] no agent named 'nobody'; defined: cleaner, notes, strict") }]);
  });
});

describe('askloop mcp serve --agent --db (a PAUSED ask approved from the shell)', () => {
  it('returns the sid of a paused ask, which askloop approve (same --db and --mcp-config) finishes', async () => {
    const file = join(directory, 'approve-memory.jsonl');
    writeFileSync(file, `${JSON.stringify({ type: 'entity', name: 'Ada', entityType: 'person', observations: [] })}\n`);
    writeFileSync(join(directory, 'approve-mcp.json'), JSON.stringify({ servers: { memory: { command: process.execPath, args: [MEMORY_SERVER], env: { MEMORY_FILE_PATH: file } } } }));
    writeFileSync(join(directory, 'forget.json'), JSON.stringify({ name: 'forget', model: 'scripted:script', policy: { allow: ['tool.memory.*'], grants: ['mcp:call:memory'] } }));
    writeFileSync(join(directory, 'forget-replies.json'), JSON.stringify([envelope('call tool.memory.delete_entities(["Ada"])', 'emit "<<<LOOP:DONE>>> forgot"')]));
    const asker = new Client({ name: 'serve-ask-db-test', version: '1.0.0' });
    await asker.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--conditions=@askloop/source', CLI, 'mcp', 'serve', '--mcp-config', 'approve-mcp.json', '--agent', 'forget.json', '--script', 'forget-replies.json', '--db', 'asks.db'],
        cwd: directory,
        stderr: 'pipe',
      }),
    );
    let sid: string;
    try {
      const result = await asker.callTool({ name: 'ask', arguments: { agent: 'forget', task: 'forget Ada' } });
      expect(result.structuredContent).toMatchObject({ status: 'PAUSED', reason: 'AWAITING_APPROVAL', result: null });
      sid = (result.structuredContent as { sid: string }).sid;
      expect(readFileSync(file, 'utf8')).toContain('"Ada"');
    } finally {
      await asker.close();
    }
    const approve = captureIo({ cwd: directory });
    expect(await main(['approve', sid, '--db', 'asks.db', '--mcp-config', 'approve-mcp.json', '--script', 'forget-replies.json', '--json'], approve)).toBe(0);
    expect(JSON.parse(approve.out)).toMatchObject({ status: 'DONE', result: 'forgot', sid });
    expect(readFileSync(file, 'utf8')).not.toContain('"Ada"');
  });
});

describe('askloop mcp serve --agent errors', () => {
  it('refuses an invalid agent file (naming it), an agent on standard input, and --script without --agent', async () => {
    writeFileSync(join(directory, 'bad.yaml'), 'name: bad\nmodle: scripted:x\n');
    const bad = captureIo({ cwd: directory });
    expect(await main(['mcp', 'serve', '--agent', 'bad.yaml'], bad)).toBe(1);
    expect(bad.err).toContain('bad.yaml');
    expect(bad.err).toContain('modle');
    const stdin = captureIo({ cwd: directory });
    expect(await main(['mcp', 'serve', '--agent', '-'], stdin)).toBe(2);
    expect(stdin.err).toContain('standard input carries the MCP protocol');
    const lonely = captureIo({ cwd: directory });
    expect(await main(['mcp', 'serve', '--script', 'replies.json'], lonely)).toBe(2);
    expect(lonely.err).toContain('--script needs at least one --agent');
  });
});
