import { describe, expect, it } from 'vitest';
import { createHostCallHandler } from './host-call-handler.ts';
import type { Interpreter } from './run-types.ts';

const interpreter: Interpreter = { run: async () => Promise.reject(new Error('unused')) };
const context = { signal: new AbortController().signal, index: 0 };

function handler(approved: string[], policy?: { allow: string[]; deny: string[] }) {
  const called: string[] = [];
  const onToolCall = createHostCallHandler({
    tools: { call: (name) => (called.push(name), 'done') },
    orchestrator: undefined,
    promptUser: undefined,
    interpreter,
    approvedTools: new Set(approved),
    policy,
  });
  return { onToolCall, called };
}

describe('createHostCallHandler', () => {
  it('calls a tool the static check approved', async () => {
    const { onToolCall, called } = handler(['tool.fs.read']);
    await expect(onToolCall('tool.fs.read', [], context)).resolves.toBe('done');
    expect(called).toEqual(['tool.fs.read']);
  });

  it('refuses a tool the static check never saw, without calling it', async () => {
    const { onToolCall, called } = handler(['tool.fs.read']);
    await expect(onToolCall('tool.fs.delete', [], context)).rejects.toMatchObject({ code: 'SCRIPT_TOOL_DENIED' });
    expect(called).toEqual([]);
  });

  it('applies the policy again to every call', async () => {
    const { onToolCall, called } = handler(['tool.fs.read', 'tool.fs.delete'], { allow: ['tool.fs.*'], deny: ['tool.fs.delete'] });
    await expect(onToolCall('tool.fs.delete', [], context)).rejects.toMatchObject({ code: 'SCRIPT_TOOL_DENIED', message: expect.stringContaining("deny pattern 'tool.fs.delete'") });
    await expect(onToolCall('tool.fs.read', [], context)).resolves.toBe('done');
    expect(called).toEqual(['tool.fs.read']);
  });
});
