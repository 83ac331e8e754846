/**
 * An MCP tool whose structured content holds millions of keys is refused at
 * the run's item limit before the handler copies, redacts and JSON-encodes
 * it. Regression: all three walked the whole map (seconds of blocked host),
 * then the byte limit or the host's character limit refused it, naming a limit
 * other than the one crossed first (`maxResultItems`).
 */
import { createPolicy, createToolHost, createToolRegistry, defineToolPack, type ToolError } from '@askloop/tools';
import { describe, expect, it } from 'vitest';
import type { McpConnection } from './mcp-connection.ts';
import { mcpToolDefinition } from './mcp-tool-definition.ts';

const KEYS = 2_000_000;

function hugeMap(keys: number): Record<string, number> {
  const map: Record<string, number> = {};
  for (let index = 0; index < keys; index += 1) map[`k${index}`] = index;
  return map;
}

/** A connection to server `big` whose every call answers with `structuredContent`. */
function connectionAnswering(structuredContent: Record<string, unknown>): McpConnection {
  return {
    name: 'big',
    listTools: async () => [],
    callTool: async () => ({ content: [], structuredContent }),
    status: () => ({ connected: true, starts: 1 }),
    redact: (text) => text,
    redactSecrets: (text) => text,
    close: async () => undefined,
  };
}

function hostFor(structuredContent: Record<string, unknown>) {
  const definition = mcpToolDefinition(
    { name: 'dump', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
    { connection: connectionAnswering(structuredContent), identifier: 'Dump', timeoutMs: 60_000, maxResultBytes: 1_048_576, approval: 'never' },
  );
  return createToolHost({ registry: createToolRegistry([defineToolPack('mcp-big', [definition])]), policy: createPolicy({ allow: ['**'], grants: ['*:*'] }), session: 's', turn: 1 });
}

async function failure(call: Promise<unknown>): Promise<ToolError> {
  return call.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (error: unknown) => error as ToolError,
  );
}

describe('MCP structured content of millions of keys', () => {
  it(`a map of ${KEYS} keys is TOOL_RESULT_TOO_LARGE for its item count, naming maxResultItems and the tool`, async () => {
    const error = await failure(hostFor({ rows: hugeMap(KEYS) }).call('tool.big.Dump', []));
    expect(error.code).toBe('TOOL_RESULT_TOO_LARGE');
    expect(error.message).toMatch(/^tool\.big\.Dump would return a map of 2000000 items at \$\.rows; the run's limit is 100000 items per list or map \(maxResultItems/);
  }, 60_000);

  it('structured content within the limits comes back whole', async () => {
    expect(await hostFor({ rows: { a: 1 } }).call('tool.big.Dump', [])).toEqual({ rows: { a: 1 } });
  });
});
