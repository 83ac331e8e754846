import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '@askloop/interpreter';
import { resolveAgentDefinition } from '../agent/agent-definition.ts';
import { hostRulesText } from './host-rules.ts';
import { buildSystemText } from './system-text.ts';

const agent = (fields: Record<string, unknown> = {}) => resolveAgentDefinition({ name: 'a', model: 'scripted:a', ...fields });

describe('the host rules in the system text', () => {
  it("tell a default agent's model the reply's form, that a failed check ends the session, the error streak and the default limits", () => {
    const text = hostRulesText(agent());
    expect(text).toContain('Reply with one envelope: START, USERDATA ({} will do), ACTIONS (your program), END.');
    expect(text).toContain("Next turn you see only this turn's OUTPUT and SCRATCHPAD (none if it fails before it runs)");
    expect(text).toContain('a syntax error, or a tool not listed or not allowed, ends the session; so does a call refused while it runs, or running out of steps, time, tool calls or loop iterations.');
    expect(text).toContain('3 such turns in a row end the session');
    expect(DEFAULT_LIMITS).toMatchObject({ fuel: 1_000_000, toolCalls: 100, wallMs: 5_000, loopIterations: 100_000 });
    expect(text).toContain('Per turn: 1,000,000 steps, 100 tool calls, 5 s; 100,000 iterations of one while or for each; OUTPUT over 16 KiB comes back cut.');
    expect(text).toContain('3 turns in a row with the same OUTPUT and SCRATCHPAD get a warning; one more ends the session.');
    expect(text).not.toContain('Granted');
  });

  it("give the agent's own quotas, repair and error streak, and its grants", () => {
    const text = hostRulesText(agent({ quotas: { fuel: 5000, toolCalls: 7, wallMs: 2500 }, repair: 2, maxErrorStreak: 1, policy: { grants: ['memory:write:/notes/**', 'fs:read:/data/**'] } }));
    expect(text).toContain('comes back in OUTPUT as SYSTEM_ERROR lines, twice in a row at most; one more ends the session.');
    expect(text).toContain('one such turn ends the session');
    expect(text).toContain('Per turn: 5,000 steps, 7 tool calls, 2.5 s;');
    expect(text).toContain('Granted (the last part is the keys, paths or hosts covered): memory:write:/notes/**, fs:read:/data/**.');
    expect(hostRulesText(agent({ repair: 1 }))).toContain('SYSTEM_ERROR lines, once in a row at most');
    expect(hostRulesText(agent({ noProgressN: 2, nudge: false }))).toContain('- 2 turns in a row with the same OUTPUT and SCRATCHPAD end the session.');
  });

  it('tell a one-turn agent that its OUTPUT is the answer and an error ends the session', () => {
    const text = hostRulesText(agent({ toolLoopPermitted: false }));
    expect(text).toContain('You have this one turn: its OUTPUT is your answer.');
    expect(text).toContain('A run-time error (failed must, bad index, tool error) ends the session.');
    expect(text).not.toContain('SCRATCHPAD');
    expect(text).not.toContain('turns in a row');
  });

  it('come after the primer and before the instructions and the catalogue, in both dialects', () => {
    for (const dialect of ['v4', 'v1'] as const) {
      const text = buildSystemText(agent({ dialect, instructions: 'Be brief.' }), 'tool.str.Length(s: string) -> int - Length.', { turn: 1, maxTurns: 8 }, 'normal');
      const rules = text.indexOf('Host rules:');
      expect(rules).toBeGreaterThan(text.indexOf('NeuroScript, the language of ACTIONS'));
      expect(rules).toBeLessThan(text.indexOf('Be brief.'));
      expect(text.indexOf('Be brief.')).toBeLessThan(text.indexOf('tool.str.Length'));
    }
  });
});
