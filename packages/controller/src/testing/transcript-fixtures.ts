/**
 * Records for store tests: a session and a turn record with every field a
 * real turn can carry (nested JSON, a prepared program, tool calls, unicode,
 * a decision), so a store that loses or reshapes anything fails.
 */
import type { LoopTally } from '../decide/loop-tally.ts';
import { TOOL_CALLS_VERSION } from '../loop/tool-calls-version.ts';
import type { TurnRecord } from '../loop/turn-record.ts';
import type { PreparedProgram } from '../interpreter/loop-interpreter.ts';
import type { SessionRecord } from '../store/transcript-store.ts';

/** A running session `sid` created at `createdAt` (override any field). */
export function sampleSession(sid: string, overrides: Partial<SessionRecord> = {}): SessionRecord {
  return {
    sid,
    agent: 'worker',
    agentDefinition: { name: 'worker', model: 'scripted:m', ceilings: { maxTurns: 4, tokens: null }, policy: { allow: ['tool.str.*'], deny: [] } },
    userdata: { subject: `task of ${sid}`, fields: { lang: 'fr', note: 'é ✓ 𝄞' } },
    status: 'running',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    turns: 0,
    ...overrides,
  };
}

const prepared = {
  mode: 'agent',
  program: { type: 'Program', commands: [{ type: 'Command', body: [{ type: 'Emit', value: { type: 'String', value: '<<<LOOP:DONE>>> ok' }, position: { line: 2, column: 3 } }] }] },
  libraries: [],
  approvedTools: ['tool.str.toupper', 'tool.memory.cas'],
} as unknown as PreparedProgram;

/** A decided turn `turnIndex` of `sid` with every optional field set (override any field). */
export function sampleTurn(sid: string, turnIndex: number, overrides: Partial<TurnRecord> = {}): TurnRecord {
  return {
    sid,
    loopId: 'loop-1',
    turnIndex,
    kind: 'normal',
    phase: 'decided',
    startedAt: '2026-01-01T00:00:01.000Z',
    endedAt: '2026-01-01T00:00:02.000Z',
    system: 'rules\ncatalogue: tool.str.ToUpper(s) …',
    envelope: '<<<NSENV:V4:START>>>\n<<<NSENV:V4:USERDATA>>>\n{"subject":"x"}\n<<<NSENV:V4:END>>>\n',
    // Model text can hold anything: NUL, a lone surrogate, quotes, backslashes, any script — a store must keep it all.
    reply: { text: 'reply with "quotes", \\, NUL \u0000, a lone \ud800 and 日本語', provider: 'scripted', model: 'm', inputTokens: 120, outputTokens: 30, cachedInputTokens: 10, costUsd: 0.0015, finishReason: 'stop', latencyMs: 12, attempts: 1 },
    lints: [{ code: 'LINT_DUP_SECTION_IGNORED', message: 'a second USERDATA was ignored' }],
    actions: 'command\n  emit "<<<LOOP:DONE>>> ok"\nendcommand',
    diagnostics: [{ code: 'SCRIPT_UNUSED_VARIABLE', severity: 'warning', kind: 'syntax', message: 'x is never read', line: 2, column: 7 }] as unknown as TurnRecord['diagnostics'],
    prepared,
    approval: { state: 'approved', message: 'tool.test.Deploy needs approval', decidedAt: '2026-01-01T00:00:01.500Z', note: 'fine' },
    emits: ['<<<LOOP:DONE>>> ok'],
    whispers: [{ target: 'scratchpad', text: 'thinking' }],
    output: '<<<LOOP:DONE>>> ok\n',
    scratchpad: 'thinking\n',
    toolCalls: [
      { index: 0, name: 'tool.str.toupper', args: ['ok', 1, true, null, { nested: [1.5, 'two'] }], result: 'OK', durationMs: 0.25 },
      { index: 1, name: 'tool.memory.cas', args: ['k', 0, 'v'], error: { code: 'TOOL_CAS_CONFLICT', message: 'version moved' }, durationMs: 1 },
    ],
    asks: [
      { index: 0, agent: 'helper', sid: 'child-of-turn', result: { nested: ['x', 1.5] } },
      { index: 1, agent: 'missing', error: { code: 'LOOP_AGENT_NOT_FOUND', message: 'no agent "missing"' } },
    ],
    failure: { code: 'SCRIPT_TOOL_FAILED', kind: 'runtime', message: 'the second call failed', line: 3, column: 5, sourceLine: '  call tool.memory.CAS("k", 0, "v")' } as unknown as TurnRecord['failure'],
    usage: { fuel: 42, toolCalls: 2, inputTokens: 120, outputTokens: 30, costUsd: 0.0015 },
    timings: { compose: 1, model: 12, extract: 0.5, prepare: 2, execute: 3, scan: 0.1, persist: 0.4, total: 19 },
    digest: 'sha256:0f1e2d',
    control: { dialect: 'v4', signal: 'done', result: 'ok', lints: [] },
    decision: { kind: 'DONE', result: 'ok' },
    ...overrides,
  };
}

/**
 * A decided turn `turnIndex` of `sid` whose tool calls carry every shape of `unfinished` a store must keep: one the
 * tool host gave up on at the run's deadline (with its error) and ones cut by a cancel, with and without an `effect`.
 * For round-trips only: a real run has at most one unfinished call, its last (it makes one call at a time).
 */
export function sampleUnfinishedTurn(sid: string, turnIndex: number): TurnRecord {
  const base = sampleTurn(sid, turnIndex);
  return {
    ...base,
    toolCalls: [
      ...base.toolCalls,
      {
        index: 2,
        name: 'tool.http.fetch',
        displayName: 'tool.http.Fetch',
        args: ['https://example.test/é', { method: 'POST' }],
        error: { code: 'SCRIPT_TOOL_ERROR', message: '[TOOL_TIMEOUT] tool.http.Fetch did not finish within 950 ms' },
        durationMs: 950,
        unfinished: { effect: 'external', note: "the tool host gave up on this call at the run's deadline …; an external tool: it may have acted" },
      },
      { index: 3, name: 'tool.memory.cas', displayName: 'tool.memory.CAS', args: ['k', 1, 'w'], durationMs: 12, unfinished: { effect: 'write', note: 'the run ended before this call returned; a write tool: it may have acted (check its target)' } },
      { index: 4, name: 'mcp.files.write', args: [], durationMs: 0, unfinished: { note: "the run ended before this call returned; the tool's effect is not known: it may have acted (check its target)" } },
    ],
    error: { code: 'SCRIPT_ABORTED', kind: 'cancelled', message: 'aborted', line: 3, column: 3, frames: [] } as unknown as TurnRecord['error'],
    failure: { code: 'SCRIPT_ABORTED', kind: 'cancelled', message: 'aborted', line: 3, column: 3 },
    usage: { ...base.usage, toolCalls: 5 },
    decision: { kind: 'HALT', reason: 'ERR_CANCELLED', message: 'SCRIPT_ABORTED: aborted' },
  };
}

/**
 * A decided turn `turnIndex` of `sid` that `resume` ran twice more after cancels, each stopped run leaving a call
 * unfinished: `earlierUnfinished` holds them (one the registry knew as a write, one it did not), with the run that
 * made each; `toolCalls` are the last run's, which ended.
 */
export function sampleRerunTurn(sid: string, turnIndex: number): TurnRecord {
  const base = sampleTurn(sid, turnIndex);
  return {
    ...base,
    toolCalls: [base.toolCalls[0] as NonNullable<TurnRecord['toolCalls'][number]>, { index: 1, name: 'tool.memory.cas', displayName: 'tool.memory.CAS', args: ['k', 1, 'w'], result: true, durationMs: 3 }],
    toolCallsVersion: TOOL_CALLS_VERSION,
    earlierUnfinished: [
      { run: 1, index: 1, name: 'tool.memory.cas', displayName: 'tool.memory.CAS', args: ['k', 1, 'w'], durationMs: 12, unfinished: { effect: 'write', note: 'the run ended before this call returned; a write tool: it may have acted (check its target)' } },
      { run: 2, index: 0, name: 'mcp.files.write', args: ['/tmp/é ✓'], durationMs: 0, unfinished: { note: "the run ended before this call returned; the tool's effect is not known: it may have acted (check its target)" } },
    ],
    reruns: 2,
    timings: { ...base.timings, earlier: 40 },
  };
}

/** A session tally after `turns` decided turns (fractional cost and a nested list, so a store that reshapes numbers fails). */
export function sampleTally(turns: number): LoopTally {
  return {
    turn: turns,
    totals: { inputTokens: 120 * turns, outputTokens: 30 * turns, costUsd: 0.0015 * turns + 0.1, fuel: 42 * turns, toolCalls: 2 * turns, wallMs: 19.25 * turns },
    errorStreak: 0,
    repairStreak: turns > 1 ? 1 : 0,
    digest: 'sha256:0f1e2d',
    digestRun: turns,
    nudged: turns > 1,
    decisions: Array.from({ length: turns }, (_, index) => ({ turn: index + 1, decision: 'CONTINUE' as const, reason: index === 0 ? null : 'repair' })),
  };
}
