/** The demo's narration of a turn shows a model's control characters escaped on a terminal, and byte-exact in a pipe. */
import type { LoopEvent, TurnRecord } from '@askloop/controller';
import { describe, expect, it } from 'vitest';
import { printDemoTurns } from '../src/demo/print-demo-turn.ts';
import { captureIo } from './capture-io.ts';

const hostile = 'done \u001b[31mRED\u001b]0;pwned\u0007';
const record = {
  sid: 's', loopId: 'l', turnIndex: 1, kind: 'normal', phase: 'decided', startedAt: '2026-11-27T00:00:00.000Z', system: '', envelope: 'the envelope',
  reply: { text: `reply ${hostile}`, provider: 'p', model: 'm', inputTokens: 1, outputTokens: 1, finishReason: 'stop', latencyMs: 1, attempts: 1 },
  lints: [], diagnostics: [], emits: [], whispers: [], output: `${hostile}\n`, scratchpad: '', toolCalls: [],
  usage: { fuel: 0, toolCalls: 0, inputTokens: 1, outputTokens: 1, costUsd: 0 }, timings: { total: 1 }, digest: null,
  decision: { kind: 'DONE', result: hostile },
} as unknown as TurnRecord;
const decision = { type: 'decision', sid: 's', loopId: 'l', ts: '', turnIndex: 1, decision: record.decision, log: {}, record } as unknown as LoopEvent;

describe('printDemoTurns', () => {
  it('escapes control characters from the model on a terminal', () => {
    const io = captureIo();
    io.stdoutIsTerminal = true;
    printDemoTurns(io, 'The model')(decision);
    expect(io.out).not.toMatch(/[\u001b\u0007]/);
    expect(io.out).toContain('done \\x1b[31mRED\\x1b]0;pwned\\x07');
  });

  it('keeps the text byte-exact in a pipe', () => {
    const io = captureIo();
    printDemoTurns(io, 'The model')(decision);
    expect(io.out).toContain(`final result: ${hostile}`);
  });
});
