import { describe, expect, it } from 'vitest';
import type { RecordedToolCall, TurnRecord } from '../loop/turn-record.ts';
import { countedCalls, limitsCallsPerSession } from './counted-calls.ts';

const call = (name: string, error?: { code: string; message: string }): RecordedToolCall => ({ index: 0, name, args: [], durationMs: 1, ...(error === undefined ? { result: null } : { error }) });
const turn = (...toolCalls: RecordedToolCall[]) => ({ toolCalls }) as unknown as TurnRecord;

describe('countedCalls', () => {
  it('counts every call the tool host let through, failed or not, in total and per tool', () => {
    const counter = countedCalls([
      turn(call('tool.a'), call('tool.a', { code: 'SCRIPT_TOOL_ERROR', message: 'tool.a: [TOOL_FAILED] disk full' })),
      turn(call('tool.b', { code: 'SCRIPT_TOOL_ERROR', message: 'tool.b: [TOOL_TIMEOUT] too slow' })),
    ]);
    expect(counter.total).toBe(3);
    expect(Object.fromEntries(counter.perTool)).toEqual({ 'tool.a': 2, 'tool.b': 1 });
  });

  it('leaves out calls refused before the count: policy, unknown tool, arguments, cancelled, replay conflicts', () => {
    const counter = countedCalls([
      turn(
        call('tool.a', { code: 'SCRIPT_TOOL_DENIED', message: 'tool.a: [POLICY_CALL_LIMIT] over its limit' }),
        call('tool.a', { code: 'SCRIPT_TOOL_NOT_FOUND', message: 'no such tool' }),
        call('tool.a', { code: 'SCRIPT_TOOL_ARGUMENTS', message: 'tool.a: [TOOL_ARGUMENT_MISSING] x' }),
        call('tool.a', { code: 'SCRIPT_TOOL_ERROR', message: 'tool.a: [TOOL_CANCELLED] the run ended' }),
        call('tool.a', { code: 'SCRIPT_TOOL_ERROR', message: 'tool.a: [TOOL_REPLAY_DIVERGED] other arguments' }),
      ),
    ]);
    expect(counter.total).toBe(0);
  });

  it('counts the calls an earlier run of a turn left unfinished: they may have acted, and the new run makes them again', () => {
    const unfinished = { ...call('tool.w'), run: 1, unfinished: { effect: 'write' as const, note: 'may have acted' } };
    const rerun = { toolCalls: [call('tool.w')], earlierUnfinished: [unfinished, { ...unfinished, run: 2 }] } as unknown as TurnRecord;
    const counter = countedCalls([rerun]);
    expect(counter.total).toBe(3);
    expect(Object.fromEntries(counter.perTool)).toEqual({ 'tool.w': 3 });
  });

  it("counts a session's asks, but not those refused before the count", () => {
    const asked = { toolCalls: [], asks: [{ index: 0, agent: 'a', sid: 'c1', result: 1 }, { index: 1, agent: 'b', error: { code: 'SCRIPT_ASK_NOT_ALLOWED', message: 'no' } }, { index: 2, agent: 'a', error: { code: 'POLICY_CALL_LIMIT', message: 'over' } }, { index: 3, agent: 'a', sid: 'c2', error: { code: 'LOOP_ASK_FAILED', message: 'halted' } }] } as unknown as TurnRecord;
    const counter = countedCalls([asked]);
    expect(counter.total).toBe(2);
    expect(Object.fromEntries(counter.perTool)).toEqual({ ask: 2 });
  });

  it('matters only for policies that limit calls per session', () => {
    expect(limitsCallsPerSession({})).toBe(false);
    expect(limitsCallsPerSession({ perTurn: 3, tools: { 'tool.a': { perTurn: 1 } } })).toBe(false);
    expect(limitsCallsPerSession({ perSession: 3 })).toBe(true);
    expect(limitsCallsPerSession({ tools: { 'tool.a': { perSession: 1 } } })).toBe(true);
  });
});
