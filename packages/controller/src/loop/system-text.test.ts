import { describe, expect, it } from 'vitest';
import type { ResolvedAgentDefinition } from '../agent/agent-definition.ts';
import { buildSystemText } from './system-text.ts';

describe('buildSystemText', () => {
  it('writes its own parts in characters up to U+00FF, so V8 keeps the text (and every request body built from it) one byte a character', () => {
    const budget = { turn: 2, maxTurns: 8, tokens: 1000, costUsd: 0.5, fuel: 100, toolCalls: 10 };
    for (const dialect of ['v4', 'v1'] as const) {
      for (const kind of ['normal', 'repair', 'nudge', 'answer-now'] as const) {
        const text = buildSystemText({ dialect, instructions: '' } as ResolvedAgentDefinition, 'tool.str.Length(s: string) -> int - Length.', budget, kind);
        expect(text.match(/[^\u0000-\u00ff]/g) ?? []).toEqual([]);
      }
    }
  });
});

describe('the budget line', () => {
  it("of the answer-now turn, past the last allowed, says so (it read 'turn 3 of 2')", () => {
    const text = buildSystemText({ dialect: 'v4', instructions: '' } as ResolvedAgentDefinition, '', { turn: 3, maxTurns: 2 }, 'answer-now');
    expect(text).toContain('Budget: turn 3, one past the 2 allowed, to answer.');
    expect(buildSystemText({ dialect: 'v4', instructions: '' } as ResolvedAgentDefinition, '', { turn: 2, maxTurns: 2 }, 'normal')).toContain('Budget: turn 2 of 2, the last: finish in this turn.');
    expect(buildSystemText({ dialect: 'v4', instructions: '' } as ResolvedAgentDefinition, '', { turn: 1, maxTurns: 2 }, 'normal')).toContain('Budget: turn 1 of 2.');
  });
});

describe('sharedSystemText', () => {
  it('is the base, a blank line and the tail, for new parts and known ones, also after its bounded cache starts over', async () => {
    const { sharedSystemText } = await import('./system-text.ts');
    const base = `rules\n\n${'tool.x.Y() -> int - y.\n'.repeat(50)}`;
    const first = sharedSystemText(base, 'Budget: turn 1 of 8.');
    expect(first).toBe(`${base}\n\nBudget: turn 1 of 8.`);
    expect(sharedSystemText(base, 'Budget: turn 1 of 8.')).toBe(first);
    expect(sharedSystemText(base, 'Budget: turn 2 of 8.')).toBe(`${base}\n\nBudget: turn 2 of 8.`);
    // A bounded cache: after many other texts the same parts still give the same text.
    for (let turn = 0; turn < 600; turn += 1) sharedSystemText(base, `Budget: turn ${turn} of 1000.`);
    expect(sharedSystemText(base, 'Budget: turn 1 of 8.')).toBe(first);
  });
});
