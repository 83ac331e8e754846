import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveAgentDefinition, type AgentDefinition } from '../agent/agent-definition.ts';
import type { ControlSignal, TurnFailure, TurnRecord } from '../loop/turn-record.ts';
import { decideTurn } from './decide-turn.ts';
import { isRepairableFailure, isRunTimeFailure } from './halt-reason-of.ts';
import { errorStreak, identicalDigestRun, repairStreak } from './stop-condition.ts';

const agent = (overrides: Partial<AgentDefinition> = {}) => resolveAgentDefinition({ name: 'a', model: 'scripted:a', ...overrides });

function turn(index: number, fields: { digest?: string | null; failure?: TurnFailure; control?: ControlSignal; kind?: TurnRecord['kind']; decision?: TurnRecord['decision']; tokens?: number; output?: string } = {}): TurnRecord {
  return {
    sid: 's', loopId: 'l', turnIndex: index, kind: fields.kind ?? 'normal', phase: 'decided', startedAt: '2026-01-01T00:00:00.000Z',
    system: '', envelope: '', lints: [], diagnostics: [], emits: [], whispers: [], output: fields.output ?? '', scratchpad: '', toolCalls: [],
    usage: { fuel: 0, toolCalls: 0, inputTokens: fields.tokens ?? 0, outputTokens: 0, costUsd: 0 }, timings: { total: 1 },
    digest: fields.digest === undefined ? `d${index}` : fields.digest,
    ...(fields.failure === undefined ? {} : { failure: fields.failure }),
    ...(fields.control === undefined ? {} : { control: fields.control }),
    ...(fields.decision === undefined ? {} : { decision: fields.decision }),
  };
}
const none: ControlSignal = { dialect: 'v4', signal: 'none', lints: [] };
const syntax: TurnFailure = { code: 'SCRIPT_SYNTAX', kind: 'syntax', message: 'bad' };
const runtime: TurnFailure = { code: 'SCRIPT_DIVISION_BY_ZERO', kind: 'runtime', message: '1/0' };

describe('decideTurn', () => {
  it('continues a turn without a signal', () => {
    expect(decideTurn({ agent: agent(), turns: [turn(1, { control: none })] })).toEqual({ kind: 'CONTINUE' });
  });

  it('halts on a failure, or feeds it back while repairs are left', () => {
    expect(decideTurn({ agent: agent(), turns: [turn(1, { failure: syntax, digest: null })] })).toMatchObject({ kind: 'HALT', reason: 'ERR_SYNTAX' });
    const repaired = turn(1, { failure: syntax, digest: null, decision: { kind: 'CONTINUE', next: 'repair' } });
    expect(decideTurn({ agent: agent({ repair: 2 }), turns: [repaired, turn(2, { failure: syntax, digest: null })] })).toEqual({ kind: 'CONTINUE', next: 'repair' });
    expect(decideTurn({ agent: agent({ repair: 1 }), turns: [repaired, turn(2, { failure: syntax, digest: null })] })).toMatchObject({ kind: 'HALT', reason: 'ERR_SYNTAX' });
  });

  it('feeds back under repair exactly the failures isRepairableFailure names (what askloop says repair would have shown)', () => {
    const kinds: TurnFailure['kind'][] = ['syntax', 'check', 'permission', 'approval', 'quota', 'timeout', 'cancelled', 'provider', 'envelope'];
    const repairable = kinds.filter((kind) => isRepairableFailure({ code: 'X', kind, message: 'm' }));
    expect(repairable).toEqual(['syntax', 'check', 'permission', 'approval', 'quota', 'timeout', 'envelope']);
    for (const kind of kinds) {
      const failure: TurnFailure = { code: kind === 'envelope' ? 'ERR_ENV_ORDER' : 'X', kind, message: 'm' };
      const decision = decideTurn({ agent: agent({ repair: 1 }), turns: [turn(1, { failure, digest: null })] });
      expect(decision.kind === 'CONTINUE', kind).toBe(isRepairableFailure(failure));
    }
    expect(isRepairableFailure(runtime) || !isRunTimeFailure(runtime)).toBe(false);
  });

  it('repairs only while the loop ceilings allow another turn', () => {
    const failed = (index: number, tokens = 0) => turn(index, { failure: syntax, digest: null, tokens });
    // The last turn allowed: no repair turn past maxTurns (or one answer-now turn when the agent has it).
    expect(decideTurn({ agent: agent({ repair: 5, ceilings: { maxTurns: 1 } }), turns: [failed(1)] })).toMatchObject({ kind: 'HALT', reason: 'ERR_MAX_TURNS_EXCEEDED' });
    expect(decideTurn({ agent: agent({ repair: 5, ceilings: { maxTurns: 1 }, answerNow: true }), turns: [failed(1)] })).toEqual({ kind: 'CONTINUE', next: 'answer-now' });
    // The token budget spent by the failed turn itself.
    expect(decideTurn({ agent: agent({ repair: 5, ceilings: { tokens: 100 } }), turns: [failed(1, 150)] })).toMatchObject({ kind: 'HALT', reason: 'ERR_BUDGET' });
    expect(decideTurn({ agent: agent({ repair: 5, ceilings: { maxTurns: 2, tokens: 100 } }), turns: [failed(1, 50)] })).toEqual({ kind: 'CONTINUE', next: 'repair' });
  });

  it('counts an internal failure (a sandbox worker that died) in the run-time error streak, never as a repair', () => {
    const internal: TurnFailure = { code: 'SCRIPT_INTERNAL', kind: 'internal', message: 'the sandbox worker died' };
    const continued = (index: number) => turn(index, { failure: internal, decision: { kind: 'CONTINUE' } });
    const streak = agent({ maxErrorStreak: 3, repair: 5 });
    expect(decideTurn({ agent: streak, turns: [continued(1), turn(2, { failure: internal })] })).toEqual({ kind: 'CONTINUE' });
    expect(decideTurn({ agent: streak, turns: [continued(1), continued(2), turn(3, { failure: internal })] })).toMatchObject({ kind: 'HALT', reason: 'ERR_TOO_MANY_ERRORS' });
    expect(decideTurn({ agent: streak, turns: [continued(1), turn(2, { failure: runtime, decision: { kind: 'CONTINUE' } }), turn(3, { failure: internal })] })).toMatchObject({ kind: 'HALT', reason: 'ERR_TOO_MANY_ERRORS' });
    expect(repairStreak([continued(1), continued(2), turn(3, { failure: syntax })])).toBe(0);
    expect(errorStreak([continued(1), continued(2)])).toBe(2);
  });

  it('never repairs provider failures', () => {
    const failure: TurnFailure = { code: 'PROVIDER_AUTH', kind: 'provider', message: 'no key' };
    expect(decideTurn({ agent: agent({ repair: 3 }), turns: [turn(1, { failure, digest: null })] })).toMatchObject({ kind: 'HALT', reason: 'ERR_PROVIDER' });
  });

  it('ranks v1 signals abort > halt > await > done', () => {
    const v1 = agent({ dialect: 'v1' });
    const signal = (s: ControlSignal['signal']): ControlSignal => ({ dialect: 'v1', signal: s, reason: 'why', lints: [] });
    expect(decideTurn({ agent: v1, turns: [turn(1, { control: signal('abort') })] })).toEqual({ kind: 'HALT', reason: 'V1_ABORT', message: 'why' });
    expect(decideTurn({ agent: v1, turns: [turn(1, { control: signal('halt') })] })).toEqual({ kind: 'HALT', reason: 'V1_HALT', message: 'why' });
    expect(decideTurn({ agent: v1, turns: [turn(1, { control: signal('await') })] })).toEqual({ kind: 'PAUSE', reason: 'V1_AWAIT', message: 'why' });
    expect(decideTurn({ agent: v1, turns: [turn(1, { control: signal('continue') })] })).toEqual({ kind: 'CONTINUE' });
    expect(decideTurn({ agent: v1, turns: [turn(1, { control: { dialect: 'v1', signal: 'none', lints: [] }, output: 'answer\n' })] })).toEqual({ kind: 'DONE', result: 'answer' });
  });

  it('halts a v1 await on the last allowed turn or past a ceiling instead of pausing for an approval that would run another turn (walkthrough: approvals took the loop past maxTurns)', () => {
    const awaiting: ControlSignal = { dialect: 'v1', signal: 'await', reason: 'deploy?', lints: [] };
    expect(decideTurn({ agent: agent({ dialect: 'v1', ceilings: { maxTurns: 1 } }), turns: [turn(1, { control: awaiting })] })).toEqual({ kind: 'HALT', reason: 'ERR_MAX_TURNS_EXCEEDED', message: '1 turn without DONE' });
    expect(decideTurn({ agent: agent({ dialect: 'v1', ceilings: { tokens: 100 } }), turns: [turn(1, { control: awaiting, tokens: 110 })] })).toMatchObject({ kind: 'HALT', reason: 'ERR_BUDGET' });
    expect(decideTurn({ agent: agent({ dialect: 'v1', ceilings: { maxTurns: 1 }, answerNow: true }), turns: [turn(1, { control: awaiting })] })).toEqual({ kind: 'CONTINUE', next: 'answer-now' });
    expect(decideTurn({ agent: agent({ dialect: 'v1', ceilings: { maxTurns: 2 } }), turns: [turn(1, { control: awaiting })] })).toEqual({ kind: 'PAUSE', reason: 'V1_AWAIT', message: 'deploy?' });
  });

  it('keeps DONE on the last allowed turn and halts without it', () => {
    const done: ControlSignal = { dialect: 'v4', signal: 'done', result: 'r', lints: [] };
    expect(decideTurn({ agent: agent({ ceilings: { maxTurns: 1 } }), turns: [turn(1, { control: done })] })).toEqual({ kind: 'DONE', result: 'r' });
    expect(decideTurn({ agent: agent({ ceilings: { maxTurns: 1 } }), turns: [turn(1, { control: none })] })).toMatchObject({ kind: 'HALT', reason: 'ERR_MAX_TURNS_EXCEEDED', message: '1 turn without DONE' });
  });

  it('gives one answer-now turn on a turn or budget limit', () => {
    const limited = agent({ ceilings: { maxTurns: 1, tokens: 5 }, answerNow: true });
    expect(decideTurn({ agent: limited, turns: [turn(1, { control: none, tokens: 10 })] })).toEqual({ kind: 'CONTINUE', next: 'answer-now' });
    expect(decideTurn({ agent: limited, turns: [turn(1, { control: none, tokens: 10 }), turn(2, { control: none, kind: 'answer-now' })] })).toMatchObject({ kind: 'HALT', reason: 'ERR_BUDGET' });
  });

  it('nudges once at N identical digests, then halts', () => {
    const same = [turn(1, { digest: 'x', control: none }), turn(2, { digest: 'x', control: none }), turn(3, { digest: 'x', control: none })];
    expect(decideTurn({ agent: agent(), turns: same })).toEqual({ kind: 'CONTINUE', next: 'nudge' });
    // The message counts the turns that repeated: with the nudge, four of N = 3 (it said 3).
    expect(decideTurn({ agent: agent(), turns: [...same, turn(4, { digest: 'x', control: none, kind: 'nudge' })] })).toEqual({ kind: 'HALT', reason: 'ERR_NO_PROGRESS', message: '4 turns in a row produced the same OUTPUT and SCRATCHPAD, the last after being told it was repeating itself' });
    expect(decideTurn({ agent: agent({ nudge: false }), turns: same })).toEqual({ kind: 'HALT', reason: 'ERR_NO_PROGRESS', message: '3 turns in a row produced the same OUTPUT and SCRATCHPAD' });
  });

  it('halts a run-time error streak', () => {
    const errors = [turn(1, { failure: runtime, control: none }), turn(2, { failure: runtime, control: none })];
    expect(decideTurn({ agent: agent({ maxErrorStreak: 3 }), turns: errors })).toEqual({ kind: 'CONTINUE' });
    expect(decideTurn({ agent: agent({ maxErrorStreak: 2 }), turns: errors })).toMatchObject({ kind: 'HALT', reason: 'ERR_TOO_MANY_ERRORS' });
  });

  it('halts on the loop totals', () => {
    expect(decideTurn({ agent: agent({ ceilings: { wallMs: 1 } }), turns: [turn(1, { control: none })] })).toMatchObject({ reason: 'ERR_TIMEOUT' });
    expect(decideTurn({ agent: agent({ ceilings: { tokens: 1 } }), turns: [turn(1, { control: none, tokens: 2 })] })).toMatchObject({ reason: 'ERR_BUDGET' });
    const costly = { ...turn(1, { control: none }), usage: { fuel: 0, toolCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0.02 } };
    expect(decideTurn({ agent: agent({ ceilings: { costUsd: 0.01 } }), turns: [costly] })).toMatchObject({ reason: 'ERR_BUDGET' });
    expect(decideTurn({ agent: agent({ ceilings: { costUsd: 0.05 } }), turns: [costly] })).toEqual({ kind: 'CONTINUE' });
    // Eight turns of $0.1 sum to $0.7999999999999999 in floats: a $0.8 ceiling is reached at the eighth, not the ninth.
    const tenth = (index: number) => ({ ...turn(index, { control: none }), usage: { fuel: 0, toolCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0.1 } });
    const eight = Array.from({ length: 8 }, (_, index) => tenth(index + 1));
    expect(decideTurn({ agent: agent({ ceilings: { costUsd: 0.8, maxTurns: 20 } }), turns: eight })).toMatchObject({ reason: 'ERR_BUDGET' });
    expect(decideTurn({ agent: agent({ ceilings: { costUsd: 0.8, maxTurns: 20 } }), turns: eight.slice(0, 7) })).toEqual({ kind: 'CONTINUE' });
    const busy = { ...turn(1, { control: none }), usage: { fuel: 500, toolCalls: 3, inputTokens: 0, outputTokens: 0, costUsd: 0 } };
    expect(decideTurn({ agent: agent({ ceilings: { fuel: 500 } }), turns: [busy] })).toMatchObject({ reason: 'ERR_QUOTA' });
  });

  it('turns a CONTINUE into ERR_CANCELLED when cancelled, and keeps a DONE', () => {
    expect(decideTurn({ agent: agent(), turns: [turn(1, { control: none })], cancelled: true })).toMatchObject({ kind: 'HALT', reason: 'ERR_CANCELLED' });
    const done: ControlSignal = { dialect: 'v4', signal: 'done', result: null, lints: [] };
    expect(decideTurn({ agent: agent(), turns: [turn(1, { control: done })], cancelled: true })).toEqual({ kind: 'DONE', result: null });
  });

  it('allows one turn only without the tool loop', () => {
    expect(decideTurn({ agent: agent({ toolLoopPermitted: false }), turns: [turn(1, { control: none, output: 'x\n' })] })).toEqual({ kind: 'DONE', result: 'x' });
  });
});

describe('stop conditions', () => {
  it('counts the trailing run of identical digests like a naive scan', () => {
    fc.assert(
      fc.property(fc.array(fc.option(fc.constantFrom('a', 'b'), { nil: null }), { maxLength: 12 }), (digests) => {
        const turns = digests.map((digest, index) => turn(index + 1, { digest }));
        let expected = 0;
        const last = digests.at(-1) ?? null;
        if (last !== null) for (let index = digests.length - 1; index >= 0 && digests[index] === last; index -= 1) expected += 1;
        expect(identicalDigestRun(turns)).toBe(expected);
      }),
    );
  });

  it('counts only the repairs before the current turn', () => {
    const repaired = (index: number) => turn(index, { failure: syntax, decision: { kind: 'CONTINUE', next: 'repair' } });
    expect(repairStreak([repaired(1), repaired(2), turn(3, { failure: syntax })])).toBe(2);
    expect(repairStreak([repaired(1), turn(2), turn(3, { failure: syntax })])).toBe(0);
  });
});
