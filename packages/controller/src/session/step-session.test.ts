import { describe, expect, it } from 'vitest';
import { sampleTurn } from '../testing/transcript-fixtures.ts';
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
