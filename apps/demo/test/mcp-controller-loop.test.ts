/**
 * MCP servers in a whole ask loop: `createAskLoop` with `mcpPlugin` and a
 * scripted model, against the real server-memory and the SDK fixture server
 * over stdio. Proves that a turn's program calls MCP tools, a destructive MCP
 * tool pauses for approval before anything runs, a tools/list_changed shows
 * up in the next turn's catalogue, the servers are reused across turns and
 * closed by `loop.close()`, and the run's cancellation reaches the server.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAskLoop, createMemoryTranscriptStore, definePlugin, type AgentDefinition, type AskLoopPlugin, type LoopHooks } from '@askloop/controller';
import { createSandboxPool } from '@askloop/interpreter';
import { createScriptedProvider } from '@askloop/providers';
import { createSafeToolPacks } from '@askloop/tools';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mcpPlugin, type McpServersConfig, type McpToolSource } from '@askloop/mcp';
import { envelope as turn } from './envelope-reply.ts';

const NODE = process.execPath;
const MEMORY_SERVER = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-memory/dist/index.js');
/** A tiny SDK server: `hang` never answers, `grow` adds a tool (tools/list_changed). */
const FIXTURE_SERVER = fileURLToPath(new URL('./fixtures/mcp-fixture-server.ts', import.meta.url));

const pool = createSandboxPool({ workers: 1 });
let directory: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'askloop-mcp-loop-'));
});

afterAll(async () => {
  await pool.close();
  rmSync(directory, { recursive: true, force: true });
});

/** A v4 envelope around one command block, as a model would send it. */
const agent: AgentDefinition = {
  name: 'notes',
  model: 'scripted:notes',
  policy: { allow: ['tool.memory.*', 'tool.fixture.*', 'tool.str.*'], grants: ['mcp:call:memory', 'mcp:call:fixture'] },
};

/** The loop's plugins: the scripted model with `replies`, the safe built-in tools, the MCP servers, and hooks that may use the source. */
function loopWith(replies: readonly string[], servers: McpServersConfig, hooks?: (source: McpToolSource) => LoopHooks) {
  const mcp = mcpPlugin({ servers });
  const source = mcp.toolSources[0]!;
  const base: AskLoopPlugin = definePlugin({
    name: 'test',
    specificationVersion: 'v1',
    providers: { scripted: createScriptedProvider({ models: { notes: replies } }) },
    toolPacks: createSafeToolPacks(),
    ...(hooks === undefined ? {} : { hooks: hooks(source) }),
  });
  const store = createMemoryTranscriptStore();
  const loop = createAskLoop({ plugins: [base, mcp], store, pool });
  return { loop, store, source };
}

const processGone = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};

describe('MCP tools in a whole ask loop (controller + mcpPlugin)', () => {
  it('runs MCP calls in turns, refreshes the catalogue after list_changed, pauses a destructive tool for approval, reuses the servers and closes them with the loop', async () => {
    const memoryFile = join(directory, 'memory.jsonl');
    const { loop, store, source } = loopWith(
      [
        turn(
          'call tool.memory.create_entities([{"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}])',
          'set graph = tool.memory.read_graph()',
          'emit graph["entities"][0]["name"]',
          'emit tool.fixture.grow()',
        ),
        // grown_1 exists only because the server announced tools/list_changed after turn 1.
        turn('emit tool.fixture.grown_1()'),
        // delete_entities is destructive (annotations): the program waits for a person before anything runs.
        turn('call tool.memory.delete_entities(["Ada"])', 'emit "<<<LOOP:DONE>>> forgot Ada"'),
      ],
      { memory: { command: NODE, args: [MEMORY_SERVER], env: { MEMORY_FILE_PATH: memoryFile } }, fixture: { command: NODE, args: [FIXTURE_SERVER] } },
    );

    const paused = await loop.run({ agent, task: 'remember Ada, then forget her' });
    expect(paused).toMatchObject({ status: 'PAUSED', reason: 'AWAITING_APPROVAL', turns: 2 });
    const turns = await store.listTurns(paused.sid);
    expect(turns[0]?.emits).toEqual(['Ada', 'added grown-1']);
    expect(turns[0]?.toolCalls.map((call) => call.name)).toEqual(['tool.memory.create_entities', 'tool.memory.read_graph', 'tool.fixture.grow']);
    expect(turns[1]?.emits).toEqual(['grown 1']);
    expect(turns[2]?.approval).toMatchObject({ state: 'pending', message: expect.stringContaining('tool.memory.delete_entities') });
    expect(turns[2]?.toolCalls).toEqual([]);
    // Nothing of the paused program ran: Ada is still in the server's file.
    expect(readFileSync(memoryFile, 'utf8')).toContain('"Ada"');

    const pids = Object.fromEntries(Object.entries(source.status()).map(([name, status]) => [name, status.pid]));
    const done = await loop.approve(paused.sid);
    expect(done).toMatchObject({ status: 'DONE', result: 'forgot Ada', turns: 3 });
    expect(readFileSync(memoryFile, 'utf8')).not.toContain('"Ada"');

    // One start per server for the whole session: reused across turns and the approval.
    const status = source.status();
    expect(status.memory).toMatchObject({ connected: true, starts: 1, pid: pids.memory });
    expect(status.fixture).toMatchObject({ connected: true, starts: 1, pid: pids.fixture });

    await loop.close();
    expect(source.status().memory?.connected).toBe(false);
    await vi.waitFor(() => expect(processGone(pids.memory as number) && processGone(pids.fixture as number)).toBe(true), { timeout: 5_000 });
    await expect(source.toolPacks()).rejects.toMatchObject({ code: 'MCP_CLOSED' });
  });

  it('starts servers lazily, and starts a server killed between turns again on its next call', async () => {
    const memoryFile = join(directory, 'restart.jsonl');
    const pids: number[] = [];
    const { loop, source } = loopWith(
      [turn('call tool.memory.create_entities([{"name": "Cy", "entityType": "person", "observations": []}])'), turn('set graph = tool.memory.read_graph()', 'emit "<<<LOOP:DONE>>> " + graph["entities"][0]["name"]')],
      { memory: { command: NODE, args: [MEMORY_SERVER], env: { MEMORY_FILE_PATH: memoryFile } } },
      (mcp) => ({
        async turnStart(turnContext) {
          if (turnContext.turnIndex !== 2) return;
          // Between the turns the server dies; the loop notices and the next call starts it again.
          const pid = mcp.status().memory?.pid as number;
          pids.push(pid);
          process.kill(pid, 'SIGKILL');
          await vi.waitFor(() => expect(mcp.status().memory?.connected).toBe(false), { timeout: 5_000 });
        },
      }),
    );
    try {
      expect(source.status().memory).toEqual({ connected: false, starts: 0 });
      const result = await loop.run({ agent, task: 'x' });
      expect(result).toMatchObject({ status: 'DONE', result: 'Cy', turns: 2 });
      const after = source.status().memory;
      expect(after).toMatchObject({ connected: true, starts: 2 });
      expect(after?.pid).not.toBe(pids[0]);
    } finally {
      await loop.close();
    }
  });

  it('stops a program with an unknown or denied MCP tool in the check, before any of its calls run', async () => {
    const memoryFile = join(directory, 'denied.jsonl');
    const { loop, store } = loopWith(
      [turn('call tool.memory.create_entities([{"name": "Bob", "entityType": "person", "observations": []}])', 'emit tool.memory.nope()', 'call tool.memory.delete_entities(["Bob"])')],
      { memory: { command: NODE, args: [MEMORY_SERVER], env: { MEMORY_FILE_PATH: memoryFile } } },
    );
    try {
      const denying = { ...agent, policy: { ...agent.policy, deny: ['tool.memory.delete_*'] } };
      const result = await loop.run({ agent: denying, task: 'x' });
      expect(result.status).toBe('HALT');
      const [first] = await store.listTurns(result.sid);
      expect(first?.diagnostics.map((diagnostic) => diagnostic.code).sort()).toEqual(['SCRIPT_TOOL_DENIED', 'SCRIPT_TOOL_UNKNOWN']);
      expect(first?.toolCalls).toEqual([]);
      // create_entities, the first statement, never ran.
      expect(existsSync(memoryFile) ? readFileSync(memoryFile, 'utf8') : '').not.toContain('Bob');
    } finally {
      await loop.close();
    }
  });

  it('fails a turn whose MCP call hangs with a timeout naming server and tool, and goes on with the next turn', async () => {
    const marker = join(directory, 'timeout-cancelled');
    const { loop, store } = loopWith([turn('emit tool.fixture.hang()'), turn('emit "<<<LOOP:DONE>>> gave up"')], {
      fixture: { command: NODE, args: [FIXTURE_SERVER], env: { CANCEL_MARKER: marker }, timeoutMs: 2_000 },
    });
    try {
      const result = await loop.run({ agent, task: 'x' });
      expect(result).toMatchObject({ status: 'DONE', result: 'gave up' });
      const [first] = await store.listTurns(result.sid);
      expect(first?.toolCalls[0]?.error?.message).toContain("[TOOL_TIMEOUT] tool.fixture.hang: MCP server 'fixture' tool 'hang' did not answer within 2000 ms");
      // The timed-out request was cancelled on the server (notifications/cancelled).
      await vi.waitFor(() => expect(existsSync(marker)).toBe(true), { timeout: 5_000 });
    } finally {
      await loop.close();
    }
  });

  it('passes the run\'s cancellation on to the server (notifications/cancelled)', async () => {
    const started = join(directory, 'started');
    const cancelled = join(directory, 'run-cancelled');
    const { loop } = loopWith([turn('emit tool.fixture.hang()')], {
      fixture: { command: NODE, args: [FIXTURE_SERVER], env: { STARTED_MARKER: started, CANCEL_MARKER: cancelled }, timeoutMs: 60_000 },
    });
    try {
      const controller = new AbortController();
      const running = loop.run({ agent, task: 'x', signal: controller.signal });
      await vi.waitFor(() => expect(existsSync(started)).toBe(true), { timeout: 20_000 });
      controller.abort(new Error('the person pressed Ctrl-C'));
      expect(await running).toMatchObject({ status: 'HALT', reason: 'ERR_CANCELLED' });
      await vi.waitFor(() => expect(existsSync(cancelled)).toBe(true), { timeout: 5_000 });
    } finally {
      await loop.close();
    }
  });
});
