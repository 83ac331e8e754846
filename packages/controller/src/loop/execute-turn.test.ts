/** The turn's tools count their deadline from the run's start on a sandbox worker, not from before a wait in the pool's queue. */
import type { RunResult } from '@askloop/interpreter';
import { createCallCounter } from '@askloop/tools';
import { describe, expect, it } from 'vitest';
import type { ExecuteOptions, LoopInterpreter, LoopToolBridge, PreparedProgram } from '../interpreter/loop-interpreter.ts';
import { executeTurn, turnLimits, type RunBounds } from './execute-turn.ts';
import { loopTotals } from '../decide/stop-condition.ts';
import type { LoopContext } from './loop-context.ts';
import type { TurnRecord } from './turn-record.ts';

const QUEUE_WAIT_MS = 10_000;
const WALL_MS = 1_000;

const emptyResult: RunResult = { ok: true, emits: [], whispers: {}, output: '', scratchpad: '', error: null, diagnostics: [], usage: { fuel: 1, toolCalls: 1, wallMs: 1 } };

/** A stand-in interpreter: the run waits in the pool's queue (the clock moves on), then starts (onStart, unless told not to) and calls one tool. */
function queuedInterpreter(clock: { time: number }, reportsStart: boolean, seen: string[]): LoopInterpreter {
  return {
    prepare: () => Promise.reject(new Error('not used')),
    async execute(_prepared: PreparedProgram, options: ExecuteOptions = {}) {
      clock.time += QUEUE_WAIT_MS;
      if (reportsStart) {
        seen.push(`start at ${clock.time}`);
        options.onStart?.();
      }
      clock.time += 200;
      seen.push(`call at ${clock.time}`);
      await options.tools?.call('tool.test.echo', []);
      return emptyResult;
    },
  };
}

async function boundsOfTurn(reportsStart: boolean): Promise<{ bounds: RunBounds[]; seen: string[] }> {
  const clock = { time: 1_000_000 };
  const seen: string[] = [];
  const context = {
    clock: { now: () => clock.time },
    interpreter: queuedInterpreter(clock, reportsStart, seen),
    agent: { quotas: { wallMs: WALL_MS }, ceilings: {} },
    session: { userdata: null },
    emit: () => {},
  } as unknown as LoopContext;
  const record = { sid: 's', loopId: 'l', turnIndex: 0, actions: '', timings: {} } as unknown as TurnRecord;
  const bounds: RunBounds[] = [];
  const toolsFor = (given: RunBounds): LoopToolBridge => {
    bounds.push(given);
    return { call: () => 'echo' };
  };
  await executeTurn(context, record, {} as PreparedProgram, toolsFor, loopTotals([]), createCallCounter());
  return { bounds, seen };
}

describe('executeTurn: the tools\u2019 deadline', () => {
  it('counts from the moment a worker takes the run (onStart), after the queue wait', async () => {
    const { bounds, seen } = await boundsOfTurn(true);
    expect(seen).toEqual(['start at 1010000', 'call at 1010200']);
    // One tool host per turn, made at the start: start + wallMs + the 50 ms grace.
    expect(bounds.map((given) => given.deadline)).toEqual([1_010_000 + WALL_MS + 50]);
    // A call that says how much of the run's time is left gets that plus the same grace instead.
    expect(bounds.map((given) => given.deadlineGraceMs)).toEqual([50]);
  });

  it('counts from the first tool call when the interpreter does not report the start', async () => {
    const { bounds } = await boundsOfTurn(false);
    expect(bounds.map((given) => given.deadline)).toEqual([1_010_200 + WALL_MS + 50]);
  });
});

describe('turnLimits', () => {
  const contextWith = (quotas: object, ceilings: object) => ({ agent: { quotas, ceilings } }) as unknown as LoopContext;
  const totals = { ...loopTotals([]), wallMs: 4_000, fuel: 900 };

  it("caps the run's wall clock by what the turns before and this turn's stages left of the ceiling", () => {
    expect(turnLimits(contextWith({ wallMs: 3_000 }, { wallMs: 10_000 }), totals, 2_500).wallMs).toBe(3_000);
    expect(turnLimits(contextWith({ wallMs: 3_000 }, { wallMs: 10_000 }), totals, 4_000).wallMs).toBe(2_000);
    expect(turnLimits(contextWith({ wallMs: 3_000 }, { wallMs: 10_000 }), totals, 7_000).wallMs).toBe(0);
    expect(turnLimits(contextWith({ wallMs: 3_000 }, {}), totals, 7_000).wallMs).toBe(3_000);
  });

  it('caps fuel by what is left of the loop total', () => {
    expect(turnLimits(contextWith({ fuel: 500 }, { fuel: 1_000 }), totals).fuel).toBe(100);
  });
});

describe('executeTurn: a call reported after the run\u2019s time was up, in a run that then ends out of time', () => {
  const timedOut: RunResult = {
    ok: false,
    emits: ['used OK'],
    whispers: {},
    output: 'used OK\n',
    scratchpad: '',
    error: { code: 'SCRIPT_TIMEOUT', kind: 'timeout', message: 'the run ran out of time', line: 3, column: 1, frames: [] },
    diagnostics: [],
    usage: { fuel: 5, toolCalls: 1, wallMs: WALL_MS },
  } as unknown as RunResult;

  /** The tool answers (or fails with `failure`) 20 ms past the run's wall clock, inside the tool host's grace; the run then times out. */
  async function lateCall(failure?: Error & { code: string }) {
    const clock = { time: 1_000_000 };
    const interpreter: LoopInterpreter = {
      prepare: () => Promise.reject(new Error('not used')),
      async execute(_prepared: PreparedProgram, options: ExecuteOptions = {}) {
        options.onStart?.();
        clock.time += WALL_MS + 20;
        try {
          const value = await options.tools?.call('tool.test.write', []);
          options.onToolCall?.({ name: 'tool.test.write', args: [], result: value as string, durationMs: WALL_MS + 20 });
        } catch (error) {
          options.onToolCall?.({ name: 'tool.test.write', args: [], error: { code: 'SCRIPT_TOOL_ERROR', kind: 'runtime', message: (error as Error).message, line: 2, column: 1, frames: [] } as never, durationMs: WALL_MS + 20 });
        }
        return timedOut;
      },
    };
    const context = { clock: { now: () => clock.time }, interpreter, agent: { quotas: { wallMs: WALL_MS }, ceilings: {} }, session: { userdata: null }, emit: () => {} } as unknown as LoopContext;
    const record = { sid: 's', loopId: 'l', turnIndex: 0, actions: '', timings: {} } as unknown as TurnRecord;
    const toolsFor = (): LoopToolBridge => ({ call: () => (failure === undefined ? Promise.resolve('OK') : Promise.reject(failure)) });
    const patch = await executeTurn(context, record, {} as PreparedProgram, toolsFor, loopTotals([]), createCallCounter(), () => ({ effect: 'write' }));
    return patch.toolCalls;
  }

  it('keeps the result of a call that returned late: it was real, and the program used it', async () => {
    // Found by review: it was marked "the tool host gave up on this call", and its result dropped.
    const [call] = await lateCall();
    expect(call).toMatchObject({ name: 'tool.test.write', result: 'OK' });
    expect(call).not.toHaveProperty('unfinished');
  });

  it('marks unfinished, with its error, a call the tool host gave up on at the deadline (TOOL_TIMEOUT)', async () => {
    const [call] = await lateCall(Object.assign(new Error('[TOOL_TIMEOUT] tool.test.write timed out'), { code: 'TOOL_TIMEOUT' }));
    expect(call).toMatchObject({ error: { message: expect.stringContaining('TOOL_TIMEOUT') }, unfinished: { effect: 'write', note: expect.stringContaining('gave up on this call') } });
  });

  it('does not mark a call that failed late for another reason', async () => {
    const [call] = await lateCall(Object.assign(new Error('[TOOL_FAILED] boom'), { code: 'TOOL_FAILED' }));
    expect(call).toMatchObject({ error: { message: expect.stringContaining('boom') } });
    expect(call).not.toHaveProperty('unfinished');
  });
});
