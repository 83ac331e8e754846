/**
 * A replayed turn that timed out inside its last tool call fails that call at
 * the deadline a live tool host would give it: the run's, or — when the run
 * says how much of its time is left — the later of that and now + what is left.
 */
import type { HostToolCatalog } from '@askloop/tools';
import { describe, expect, it } from 'vitest';
import type { RunBounds } from '../loop/execute-turn.ts';
import type { TurnRecord } from '../loop/turn-record.ts';
import { createRecordedTools } from './replay-sources.ts';

const timedOut = {
  turnIndex: 1,
  failure: { kind: 'timeout' },
  toolCalls: [{ name: 'tool.test.sleep', args: [5_000], error: { code: 'TOOL_TIMEOUT', message: 'cut' } }],
} as unknown as TurnRecord;

function toolsFor(deadlineInMs: number) {
  const clock = { now: () => 1_000_000 };
  const bounds: RunBounds = { signal: new AbortController().signal, deadline: clock.now() + deadlineInMs, deadlineGraceMs: 50, maxResultLength: 1_000, maxResultItems: 1_000 };
  return createRecordedTools(timedOut, timedOut, {} as HostToolCatalog, bounds, clock);
}

async function failsAfter(call: () => unknown): Promise<number> {
  const started = performance.now();
  await expect(call()).rejects.toMatchObject({ code: 'TOOL_TIMEOUT' });
  return performance.now() - started;
}

describe('recorded tools: a call that timed out', () => {
  it("fails at the run's deadline", async () => {
    const tools = toolsFor(0);
    expect(await failsAfter(() => tools.call('tool.test.sleep', [5_000]))).toBeLessThan(2_000);
  });

  it('fails at now + the time the run says it has left + the grace, when that is later', async () => {
    const tools = toolsFor(0);
    // The run's deadline has passed (a stall the run did not count), but it has 200 ms of its own left.
    expect(await failsAfter(() => tools.call('tool.test.sleep', [5_000], { timeLeftMs: 200 }))).toBeGreaterThanOrEqual(200);
  });
});

describe('recorded tools: a call that was denied', () => {
  it('fails with the recorded grant beside the recorded message, as the live call did', async () => {
    const grant = { capability: 'memory:write:my key', code: 'POLICY_CAPABILITY_MISSING' };
    const denied = { turnIndex: 1, toolCalls: [{ name: 'tool.memory.cas', args: ['my key', 0, 'v'], error: { code: 'SCRIPT_TOOL_DENIED', message: 'denied', grant } }] } as unknown as TurnRecord;
    const clock = { now: () => 1_000_000 };
    const bounds: RunBounds = { signal: new AbortController().signal, deadline: clock.now() + 1_000, deadlineGraceMs: 50, maxResultLength: 1_000, maxResultItems: 1_000 };
    const tools = createRecordedTools(denied, denied, {} as HostToolCatalog, bounds, clock);
    await expect(Promise.resolve().then(() => tools.call('tool.memory.cas', ['my key', 0, 'v']))).rejects.toMatchObject({ code: 'SCRIPT_TOOL_DENIED', message: 'denied', grant });
  });
});
