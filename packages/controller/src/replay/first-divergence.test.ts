/** How replay compares a turn's decision: a HALT's message with its code said once, on both sides. */
import { describe, expect, it } from 'vitest';
import { sampleTurn } from '../testing/transcript-fixtures.ts';
import { TOOL_CALLS_VERSION } from '../loop/tool-calls-version.ts';
import { firstDivergence } from './first-divergence.ts';

const halted = (message: string) => sampleTurn('s', 1, { decision: { kind: 'HALT', reason: 'ERR_PROVIDER', message } as never });

describe('firstDivergence: decisions', () => {
  it('reads an old recording that said a provider failure\'s code twice as the replay says it once', () => {
    expect(firstDivergence([halted('PROVIDER_SERVER: [acme:m] PROVIDER_SERVER: HTTP 500')], [halted('[acme:m] PROVIDER_SERVER: HTTP 500')])).toBeNull();
  });

  it('matches a decision worded with its code twice against itself (review: only the recording was read so)', () => {
    const worded = 'PLUGIN_STOP: [gate] PLUGIN_STOP: budget spent';
    expect(firstDivergence([halted(worded)], [halted(worded)])).toBeNull();
  });

  it('still reports a decision that says something else', () => {
    expect(firstDivergence([halted('[acme:m] PROVIDER_SERVER: HTTP 500')], [halted('[acme:m] PROVIDER_SERVER: HTTP 502')])).toMatchObject({ field: 'decision' });
  });
});

describe('firstDivergence: a replay that timed out inside a call its recording does not hold', () => {
  const calledA = { index: 0, name: 'tool.a', args: [], result: 1, durationMs: 1 };
  const outB = { index: 1, name: 'tool.b', args: [], durationMs: 900, unfinished: { effect: 'write' as const, note: 'the run ended before this call returned' } };
  const timedOut = { failure: { code: 'SCRIPT_TIMEOUT', kind: 'timeout' as const, message: 'out of time' }, decision: { kind: 'HALT', reason: 'ERR_TIMEOUT', message: 'out of time' } as never };
  const replayed = sampleTurn('s', 1, { ...timedOut, toolCalls: [calledA, outB], toolCallsVersion: TOOL_CALLS_VERSION });

  it('reports it against a recording made since (its run timed out while it computed, no call out)', () => {
    const recorded = sampleTurn('s', 1, { ...timedOut, toolCalls: [calledA], toolCallsVersion: TOOL_CALLS_VERSION });
    expect(firstDivergence([recorded], [replayed])).toMatchObject({ field: 'toolCalls', recorded: ['tool.a'], replayed: ['tool.a', 'tool.b (unfinished)'] });
  });

  it('reads a recording from before unfinished calls were kept (no toolCallsVersion) as it was written: that call left out', () => {
    const recorded = sampleTurn('s', 1, { ...timedOut, toolCalls: [calledA] });
    expect(firstDivergence([recorded], [replayed])).toBeNull();
  });
});
