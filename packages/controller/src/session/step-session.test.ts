import { describe, expect, it } from 'vitest';
import { TOOL_CALLS_VERSION } from '../loop/tool-calls-version.ts';
import type { TurnRecord } from '../loop/turn-record.ts';
import { sampleTurn, sampleUnfinishedTurn } from '../testing/transcript-fixtures.ts';
import { reopenTurn } from './step-session.ts';

describe('reopenTurn', () => {
  it('keeps the reply and drops what the cancelled run produced, its asks included', () => {
    const cancelled = sampleTurn('s-1', 2);
    expect(cancelled.asks).toHaveLength(2);
    const reopened = reopenTurn(cancelled);
    expect(reopened).toMatchObject({ phase: 'asking', reply: cancelled.reply, emits: [], whispers: [], output: '', toolCalls: [], digest: null });
    for (const key of ['asks', 'decision', 'failure', 'error', 'control', 'endedAt', 'prepared'] as const) expect(reopened).not.toHaveProperty(key);
  });
});

describe('reopenTurn: calls still out when the stopped run ended', () => {
  it('keeps them in earlierUnfinished with the run that made them, after those of runs before it, and drops the rest of its calls', () => {
    const cancelled = sampleUnfinishedTurn('s-1', 1);
    const once = reopenTurn(cancelled);
    const unfinished = cancelled.toolCalls.filter((call) => call.unfinished !== undefined);
    expect(unfinished).toHaveLength(3);
    expect(once.earlierUnfinished).toEqual(unfinished.map((call) => ({ run: 1, ...call })));
    expect(once).toMatchObject({ toolCalls: [], reruns: 1 });
    // Its calls' form goes with them: the next run writes its own.
    expect(once).not.toHaveProperty('toolCallsVersion');
    // Run 2 stopped in a call too: its unfinished call is added after run 1's.
    const out = { index: 0, name: 'tool.memory.cas', args: ['k'], durationMs: 5, unfinished: { effect: 'write' as const, note: 'the run ended before this call returned' } };
    const twice = reopenTurn({ ...cancelled, ...once, phase: 'decided', decision: cancelled.decision, toolCalls: [out], toolCallsVersion: TOOL_CALLS_VERSION } as TurnRecord);
    expect(twice.earlierUnfinished).toEqual([...unfinished.map((call) => ({ run: 1, ...call })), { run: 2, ...out }]);
    expect(twice.reruns).toBe(2);
  });

  it('adds no earlierUnfinished when the stopped run left none', () => {
    expect(reopenTurn(sampleTurn('s-1', 2))).not.toHaveProperty('earlierUnfinished');
  });
});
