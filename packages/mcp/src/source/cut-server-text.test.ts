/**
 * A server's error text cut to its bound never ends inside a word a key could
 * be written in: the host redacts the keys it knows after the cut, and the
 * start of one is no longer recognisable. Regression: the text was cut at
 * exactly 1,000 characters, so a key there kept its start.
 */
import { createPolicy, createToolHost, createToolRegistry, defineToolPack } from '@askloop/tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CUT_MARK, cutServerText } from './cut-server-text.ts';
import type { McpConnection } from './mcp-connection.ts';
import { mcpToolDefinition } from './mcp-tool-definition.ts';

const KEY = 'sk-host-only-0123456789abcdefghij';

describe('cutServerText', () => {
  it('leaves a text within the bound as it is', () => {
    expect(cutServerText('short', 10)).toBe('short');
    expect(cutServerText('x'.repeat(10), 10)).toBe('x'.repeat(10));
  });

  it('cuts at the white space before the run the bound falls in, and marks the cut', () => {
    expect(cutServerText(`failed: ${KEY} rejected`, 20)).toBe(`failed: ${CUT_MARK}`);
    expect(cutServerText('one two three', 9)).toBe(`one two ${CUT_MARK}`);
    // At a word's edge nothing more goes.
    expect(cutServerText('one two three', 8)).toBe(`one two ${CUT_MARK}`);
    expect(cutServerText('one two three', 7)).toBe(`one two${CUT_MARK}`);
    // One word longer than the bound goes whole.
    expect(cutServerText('x'.repeat(30), 10)).toBe(CUT_MARK);
    // A password with punctuation is one run: none of it stays (it was cut at the '!').
    expect(cutServerText(`${'x'.repeat(10)} hunter2!pass#word more`, 20)).toBe(`${'x'.repeat(10)} ${CUT_MARK}`);
    expect(cutServerText('a Pa$$w0rd-9 b', 6)).toBe(`a ${CUT_MARK}`);
    // Not between a surrogate pair's halves.
    expect(cutServerText('ab 😀😀 cd', 4)).toBe(`ab ${CUT_MARK}`);
    expect(cutServerText('ab 😀😀 cd', 5)).toBe(`ab ${CUT_MARK}`);
    expect(cutServerText('ab 😀 😀 cd', 7)).toBe(`ab 😀 ${CUT_MARK}`);
  });

  it('never leaves a start of a key at the end, wherever the key falls (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 1200 }), fc.string({ maxLength: 300 }), fc.integer({ min: 1, max: 1000 }), (before, after, limit) => {
        const text = `${before} ${KEY} ${after}`;
        const cut = cutServerText(text, limit);
        expect(cut.length).toBeLessThanOrEqual(limit + CUT_MARK.length);
        if (cut !== text) {
          const kept = cut.slice(0, -CUT_MARK.length);
          expect(text.startsWith(kept)).toBe(true);
          // The key is whole or not there at all: no prefix of it of 4 characters or more ends the kept text.
          for (let length = 4; length < KEY.length; length += 1) expect(kept.endsWith(KEY.slice(0, length))).toBe(false);
        }
      }),
    );
  });
});

describe("an MCP tool's error text, cut, then redacted by the host", () => {
  it('hands the program neither the key the host knows nor its start', async () => {
    // A server error of more than 1,000 characters, the host's key (one the MCP layer does not know) across the cut.
    const serverText = `${'a'.repeat(990)} ${KEY} more`;
    const connection = {
      name: 'srv',
      callTool: async () => ({ isError: true, content: [{ type: 'text', text: serverText }] }),
      redact: (text: string) => text,
      redactSecrets: (text: string) => text,
    } as unknown as McpConnection;
    const definition = mcpToolDefinition({ name: 'fail', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }, { connection, identifier: 'Fail', timeoutMs: 1000, maxResultBytes: 1000, approval: 'never' });
    const registry = createToolRegistry([defineToolPack('srv', [definition])]);
    const host = createToolHost({ registry, policy: createPolicy({ allow: ['tool.srv.*'], grants: ['mcp:call:srv'] }), session: 's', turn: 1, redact: (text) => text.replaceAll(KEY, '[REDACTED]') });
    const failure = await host.call('tool.srv.Fail', []).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure?.message).toMatch(/returned an error: a{990} … \(pack srv\)$/);
    expect(failure?.message).not.toContain('sk-h');
  });
});
