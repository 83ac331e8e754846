/**
 * A run stopped by what a loop ceiling had left (not by the agent's own
 * quota) says so: the interpreter's "(limit: toolCalls)" sent a host to
 * raise quotas.toolCalls, which changes nothing.
 */
import { createSandboxPool } from '@askloop/interpreter';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));
const twoCalls = program('set a = tool.str.ToUpper("a")', 'set b = tool.str.ToUpper("b")', 'emit a + b');

describe('a run stopped by a ceiling', () => {
  it('names the ceiling that set its limit, not only the quota the interpreter knows', async () => {
    const loop = createAskLoop({ plugins: [testPlugin({ m: [twoCalls, twoCalls, twoCalls] })], store: createMemoryTranscriptStore(), pool });
    const result = await loop.run({ agent: { name: 'a', model: 'scripted:m', policy: { allow: ['tool.str.*'] }, ceilings: { toolCalls: 3, maxTurns: 5 } }, task: 'x' });
    expect(result.failure).toMatchObject({ code: 'SCRIPT_TOOL_CALL_LIMIT' });
    expect(result.failure?.message).toContain("That limit is what the loop's ceilings.toolCalls (3) had left for this turn, below quotas.toolCalls (");
    await loop.close();
  });

  it("names the whole ceiling, not what the loop spent of it, when the first turn goes over it", async () => {
    const loop = createAskLoop({ plugins: [testPlugin({ m: [twoCalls] })], store: createMemoryTranscriptStore(), pool });
    const result = await loop.run({ agent: { name: 'a', model: 'scripted:m', policy: { allow: ['tool.str.*'] }, ceilings: { toolCalls: 1 } }, task: 'x' });
    expect(result.failure).toMatchObject({ code: 'SCRIPT_TOOL_CALL_LIMIT', message: expect.stringContaining("That limit is the loop's ceilings.toolCalls (1), below quotas.toolCalls (") });
    expect(result.failure?.message).not.toContain('spent');
    await loop.close();
  });

  it('adds nothing when the run hit its own quota', async () => {
    const loop = createAskLoop({ plugins: [testPlugin({ m: [twoCalls] })], store: createMemoryTranscriptStore(), pool });
    const result = await loop.run({ agent: { name: 'a', model: 'scripted:m', policy: { allow: ['tool.str.*'] }, quotas: { toolCalls: 1 }, ceilings: { toolCalls: 100 } }, task: 'x' });
    expect(result.failure).toMatchObject({ code: 'SCRIPT_TOOL_CALL_LIMIT' });
    expect(result.failure?.message).not.toContain('ceilings');
    await loop.close();
  });
});
