/**
 * A tool's description is model text (every prompt's catalogue, the
 * `askloop://catalogue` resource): a server that echoes the credential it was
 * given into it has it redacted there as in results and errors. Regression:
 * descriptions went out as the server wrote them.
 */
import { describe, expect, it } from 'vitest';
import { createRedact, REDACTED, serverSecrets } from '../errors/redact-secrets.ts';
import type { McpConnection } from './mcp-connection.ts';
import { mcpToolDefinition } from './mcp-tool-definition.ts';

const config = { url: 'http://user:hunter2secretpw@127.0.0.1:1/mcp', headers: { Authorization: 'Bearer supersecretvalue123' } };
const redact = createRedact(serverSecrets(config));

const connection = {
  name: 'echo',
  listTools: async () => [],
  callTool: async () => ({ content: [] }),
  status: () => ({ connected: true, starts: 1 }),
  redact,
  redactSecrets: createRedact(serverSecrets(config), { patterns: false }),
  close: async () => undefined,
} as unknown as McpConnection;

describe('a tool description that echoes a credential', () => {
  it("is redacted: the header's token and the URL's password", () => {
    const definition = mcpToolDefinition(
      { name: 'knows', description: 'a tool that knows supersecretvalue123 and hunter2secretpw', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
      { connection, identifier: 'knows', timeoutMs: 1000, maxResultBytes: 1000, approval: 'never' },
    );
    expect(definition.spec.description).toBe(`a tool that knows ${REDACTED} and ${REDACTED}`);
  });

  it("is redacted in the argument notes too: a property's description and an allowed value", () => {
    const inputSchema = {
      type: 'object' as const,
      properties: { token: { type: 'string', enum: ['supersecretvalue123', 'none'], description: `pass hunter2secretpw here ${'and more words '.repeat(10)}` } },
    };
    const definition = mcpToolDefinition(
      { name: 'knows', description: 'a tool', inputSchema, annotations: { readOnlyHint: true } },
      { connection, identifier: 'knows', timeoutMs: 1000, maxResultBytes: 1000, approval: 'never' },
    );
    expect(definition.spec.description.startsWith(`a tool. Arguments: token: "${REDACTED}"|"none" (pass ${REDACTED} here and more`)).toBe(true);
    expect(definition.spec.description).not.toMatch(/supersecret|hunter2/);
  });

  it("takes the URL's password among the server's secrets", () => {
    expect(serverSecrets(config)).toContain('hunter2secretpw');
    expect(serverSecrets({ url: 'http://127.0.0.1:1/mcp' })).toEqual([]);
  });
});
