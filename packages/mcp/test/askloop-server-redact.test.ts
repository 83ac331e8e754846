/**
 * `createAskLoopMcpServer({ redact })`: a key a tool gives back (in a result
 * or an error) never reaches the client that sent the program. Regression:
 * `askloop mcp serve`'s `neuroscript_run` made its tool hosts without the
 * redaction `ns run` and the loop have, and returned a key read from a file.
 */
import { closeDefaultPool } from '@askloop/interpreter';
import { createPolicy, createToolRegistry, defineTool, defineToolPack } from '@askloop/tools';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoopMcpServer } from '../src/index.ts';

const KEY = 'acme-live-7Hq2Lm9Xz4Pw';
afterAll(() => closeDefaultPool());

const pack = defineToolPack('leak', [
  defineTool({ name: 'tool.leak.Read', description: 'Returns a line holding the key.', args: [], returns: 'string' }, () => `ACME_API_KEY=${KEY}`),
  defineTool({ name: 'tool.leak.Fail', description: 'Throws an error quoting the key.', args: [] }, () => {
    throw new Error(`bad key ${KEY}`);
  }),
]);

async function run(redact: ((text: string) => string) | undefined, program: string): Promise<string> {
  const server = createAskLoopMcpServer({ registry: createToolRegistry([pack]), policy: createPolicy({ allow: ['tool.leak.*'] }), ...(redact === undefined ? {} : { redact }) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'redact-test', version: '1.0.0' });
  await client.connect(clientSide);
  try {
    return JSON.stringify(await client.callTool({ name: 'neuroscript_run', arguments: { program } }));
  } finally {
    await client.close();
  }
}

describe('neuroscript_run with redact', () => {
  const redact = (text: string): string => text.split(KEY).join('[REDACTED]');

  it("hands the client [REDACTED] for a key in a tool's result and error", async () => {
    const answer = await run(redact, 'command\n  emit tool.leak.Read()\n  call tool.leak.Fail()\nendcommand\n');
    expect(answer).toContain('ACME_API_KEY=[REDACTED]');
    expect(answer).toContain('bad key [REDACTED]');
    expect(answer).not.toContain(KEY);
  });

  it('hands it the key without one (what redact prevents)', async () => {
    expect(await run(undefined, 'command\n  emit tool.leak.Read()\nendcommand\n')).toContain(KEY);
  });
});
