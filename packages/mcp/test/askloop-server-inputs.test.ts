/**
 * AskLoop's tools refuse input keys they do not take, naming the key and what
 * it was likely meant as. Regression: the inputs were loose objects, so
 * `library` (for `libraries`) or `userData` (for `userdata`) were dropped and
 * the program failed on a function or variable it was never given
 * (SCRIPT_FUNCTION_UNKNOWN, SCRIPT_VARIABLE_UNSET).
 */
import { closeDefaultPool } from '@askloop/interpreter';
import { createDefaultRegistry, createPolicy } from '@askloop/tools';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAskLoopMcpServer, type AskFunction } from '../src/index.ts';

let client: Client;
const asked: string[] = [];
const ask: AskFunction = async (agent, task) => {
  asked.push(`${agent}: ${task}`);
  return { status: 'DONE', reason: null, result: 'ok', turns: 1 };
};

beforeAll(async () => {
  const server = createAskLoopMcpServer({ registry: createDefaultRegistry(), policy: createPolicy({ allow: ['tool.str.*'] }), ask });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  client = new Client({ name: 'inputs', version: '1.0.0' });
  await client.connect(clientSide);
});

afterAll(async () => {
  await client.close();
  await closeDefaultPool();
});

/** The text of an isError result (the SDK's answer to arguments its schema refuses). */
async function refusal(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, JSON.stringify(result)).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return (result.content as { text: string }[]).map((block) => block.text).join('\n');
}

const program = 'command\n  emit greet("Ada")\nendcommand\n';
const library = 'func greet(needs who returns text) means\n  return "Hello, " + who\nendfunc\n';

describe("AskLoop's tool inputs are strict", () => {
  it('refuses neuroscript_run with `library` as invalid params naming the key and the field it likely meant; nothing runs', async () => {
    const text = await refusal('neuroscript_run', { program, library: [library] });
    expect(text).toContain('MCP error -32602');
    expect(text).toContain("unknown field 'library' (did you mean 'libraries'?): this tool takes only program, libraries, userdata");
    // The same program with the right key runs.
    const result = await client.callTool({ name: 'neuroscript_run', arguments: { program, libraries: [library] } });
    expect(result.structuredContent).toMatchObject({ ok: true, emits: ['Hello, Ada'] });
  });

  it('refuses `userData` for `userdata` (keys are case-sensitive)', async () => {
    const text = await refusal('neuroscript_run', { program: 'command\n  emit userdata\nendcommand\n', userData: { a: 1 } });
    expect(text).toContain("unknown field 'userData' (did you mean 'userdata'?)");
  });

  it('refuses unknown keys of neuroscript_check and ask too, naming every one', async () => {
    expect(await refusal('neuroscript_check', { program, libraries: [], userdata: 1 })).toContain("unknown field 'userdata': this tool takes only program, libraries");
    expect(await refusal('ask', { agent: 'helper', task: 'count', agnet: 'x', priority: 1 })).toContain("unknown fields 'agnet' (did you mean 'agent'?), 'priority': this tool takes only agent, task");
    expect(asked).toEqual([]);
  });

  it('tells clients in the listed schemas that no other keys are taken', async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) expect(tool.inputSchema, tool.name).toMatchObject({ additionalProperties: false });
  });
});
