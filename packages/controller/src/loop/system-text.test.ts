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
