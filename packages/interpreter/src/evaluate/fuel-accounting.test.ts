/**
 * Fuel is counted in windows (`Machine.left`: one decrement a step, `refill`
 * when a window ends), but every step still counts exactly: a run stops at the
 * same step, reports the same fuel and reads the wall clock every 1024 steps
 * (fewer while steps are slow), as one-step-at-a-time accounting would.
 */
import { describe, expect, it } from 'vitest';
import type { Program } from '../ast/index.ts';
import { parse } from '../parse/index.ts';
import { resolveLimits, ScriptError } from '../runtime/index.ts';
import { evaluateProgram } from './evaluate-program.ts';
import type { HostBridge } from './host-bridge.ts';
import { Machine } from './machine.ts';

function parsed(source: string): Program {
  const result = parse(source);
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  return result.program;
}

const LIBRARY = parsed(
  'func fib(needs n returns r) means\n  if n < 2\n    return n\n  endif\n  return fib(n - 1) + fib(n - 2)\nendfunc\n\n' +
    'func guarded(needs n) means\n  on error do\n    emit "caught " + system_error_code\n    clear_error\n  endon\n  fail "at " + n\n  emit "after " + n\nendfunc\n\n' +
    'func down(needs n) means\n  call down(n + 1)\nendfunc\n',
);

const PROGRAMS: Record<string, string> = {
  recursion: 'command\n  emit fib(6)\n  emit fib(4)\nendcommand\n',
  loops: 'command\n  set i = 0\n  while i < 12\n    set i = i + 1\n    for each c in "ab"\n      emit c + i\n    endfor\n  endwhile\nendcommand\n',
  handlers: 'command\n  call guarded(1)\n  set x = tool.t.echo(1)\n  call guarded(2)\n  emit "done"\nendcommand\n',
};

function host(): HostBridge {
  return { request: () => ({ ok: true, value: 1 }), now: () => 0 };
}

describe('fuel accounting', () => {
  for (const [name, source] of Object.entries(PROGRAMS)) {
    it(`${name}: every fuel limit stops the run at exactly that many steps`, () => {
      const program = parsed(source);
      const full = evaluateProgram({ program, libraries: [LIBRARY] }, host());
      expect(full.error).toBeNull();
      for (let fuel = 0; fuel <= full.fuel + 1; fuel++) {
        const output = evaluateProgram({ program, libraries: [LIBRARY], limits: { fuel } }, host());
        if (fuel < full.fuel) {
          expect(output.error?.code).toBe('SCRIPT_FUEL_EXHAUSTED');
          expect(output.fuel).toBe(fuel);
          expect(full.emits.slice(0, output.emits.length)).toEqual(output.emits);
        } else {
          expect(output).toEqual(full);
        }
      }
    });
  }

  it('stops a tight recursion by fuel, blaming the statement or the call that had no fuel left', () => {
    // Step 1 is the command's statement; then each level spends one step entering (at the call site,
    // column 8) and one on its statement (column 3): step 2k enters level k, step 2k+1 runs its statement.
    const program = parsed('command\n  call down(0)\nendcommand\n');
    const limits = { callDepth: 1e6 };
    const inStatement = evaluateProgram({ program, libraries: [LIBRARY], limits: { ...limits, fuel: 100 } }, host());
    expect(inStatement.error).toMatchObject({ code: 'SCRIPT_FUEL_EXHAUSTED', line: 18, column: 3 });
    expect(inStatement.error?.frames).toHaveLength(51);
    expect(inStatement.fuel).toBe(100);
    const atCall = evaluateProgram({ program, libraries: [LIBRARY], limits: { ...limits, fuel: 101 } }, host());
    expect(atCall.error).toMatchObject({ code: 'SCRIPT_FUEL_EXHAUSTED', line: 18, column: 8 });
    expect(atCall.error?.frames).toHaveLength(51);
    expect(atCall.fuel).toBe(101);
  });

  it('stops a loop at the iteration step or at the body statement whose step had no fuel left', () => {
    // Step 1 is the while statement (line 2); then each iteration spends a step on the loop (line 2),
    // on `set x` (line 3) and on `set y` (line 4). The loop step and `set x` share one decrement.
    const program = parsed('command\n  while true\n    set x = 1\n    set y = 2\n  endwhile\nendcommand\n');
    for (let fuel = 1; fuel < 40; fuel++) {
      const output = evaluateProgram({ program, limits: { fuel, loopIterations: 1e9 } }, host());
      expect(output.fuel).toBe(fuel);
      expect(output.error).toMatchObject({ code: 'SCRIPT_FUEL_EXHAUSTED', line: [2, 3, 4][(fuel - 1) % 3], column: (fuel - 1) % 3 === 0 ? 3 : 5 });
    }
  });

  it('stops a tight recursion at the call-depth limit, at the call site', () => {
    const program = parsed('command\n  call down(0)\nendcommand\n');
    const output = evaluateProgram({ program, libraries: [LIBRARY], limits: { callDepth: 3 } }, host());
    expect(output.error).toMatchObject({ code: 'SCRIPT_CALL_DEPTH', line: 18, column: 8 });
    expect(output.error?.frames).toEqual([
      { name: 'down', line: 18, column: 8 },
      { name: 'down', line: 18, column: 8 },
      { name: 'down', line: 18, column: 8 },
      { name: 'command', line: 2, column: 8 },
    ]);
    // Command statement, then three levels of enter + statement.
    expect(output.fuel).toBe(7);
  });

  it('reads the wall clock after 16 steps, then twice as many each time up to every 1024 steps', () => {
    let steps = 0;
    const readAt: number[] = [];
    // Read during the tick that takes step `steps + 1`.
    const now = () => (readAt.push(steps + 1), 0);
    const machine = new Machine(resolveLimits({ wallMs: 10, fuel: 1e9 }), { request: () => ({ ok: true, value: null }), now }, new Map(), false, 0);
    for (; steps < 5000; steps++) machine.tick({ line: 1, column: 1 });
    expect(readAt.map((at, index) => at - (readAt[index - 1] ?? 0))).toEqual([16, 32, 64, 128, 256, 512, 1024, 1024, 1024]);
  });

  it('times out at the first read of the wall clock past the deadline', () => {
    let reads = 0;
    const program = parsed('command\n  while true\n    set x = 1\n  endwhile\nendcommand\n');
    const output = evaluateProgram(
      { program, limits: { wallMs: 3, loopIterations: 1e9, fuel: 1e9 }, startedAt: 0 },
      { request: () => ({ ok: true, value: null }), now: () => ++reads },
    );
    // Reads 1, 2 and 3 (at steps 16, 48 and 112) are within the deadline; read 4, at step 240, is past it.
    expect(output.error?.code).toBe('SCRIPT_TIMEOUT');
    expect(reads).toBe(4);
    expect(output.fuel).toBe(16 + 32 + 64 + 128);
  });

  it('reads the clock more often while steps are slow, so a run stops about when its deadline passes', () => {
    // A fake clock (whole ms, as Date.now() in the isolate) that each step moves on by 50 µs: a loop whose every
    // step copies a big list, say. 1024 steps between reads are 51 ms; read at a fixed 1024 steps, this run stopped
    // at 204 ms of a 180 ms limit.
    let time = 0;
    const machine = new Machine(resolveLimits({ wallMs: 180, fuel: 1e9 }), { request: () => ({ ok: true, value: null }), now: () => Math.floor(time) }, new Map(), false, 0);
    const where = { line: 1, column: 1 };
    let error: unknown;
    try {
      for (;;) {
        time += 0.05;
        machine.tick(where);
      }
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toMatchObject({ code: 'SCRIPT_TIMEOUT' });
    // The first 1024 slow steps cannot be helped; after them the clock is read about every 2 ms of steps.
    expect(time).toBeGreaterThan(181);
    expect(time).toBeLessThan(184);
  });

  it('reads the clock every 1024 steps again once steps are fast again', () => {
    let time = 0;
    let steps = 0;
    const readAt: number[] = [];
    const now = () => (readAt.push(steps), Math.floor(time));
    const machine = new Machine(resolveLimits({ wallMs: 1e9, fuel: 1e9 }), { request: () => ({ ok: true, value: null }), now }, new Map(), false, 0);
    const where = { line: 1, column: 1 };
    for (; steps < 5 * 1024; steps++) {
      time += 0.05;
      machine.tick(where);
    }
    const slowGap = (readAt.at(-1) as number) - (readAt.at(-2) as number);
    expect(slowGap).toBeLessThan(64);
    for (; steps < 20 * 1024; steps++) machine.tick(where);
    expect((readAt.at(-1) as number) - (readAt.at(-2) as number)).toBe(1024);
  });

  it('a host request restarts the clock interval, wherever it falls in a window', () => {
    const limits = resolveLimits({ fuel: 5000 });
    let reads = 0;
    const machine = new Machine(limits, { request: () => ({ ok: true, value: null }), now: () => ++reads }, new Map(), false, 0);
    const where = { line: 1, column: 1 };
    // Past the first reads (16, 48 … 1008 and 2032 steps in), 1000 steps into an interval of 1024.
    for (let step = 0; step < 3032; step++) machine.tick(where);
    expect(reads).toBe(7);
    machine.request({ kind: 'promptuser', prompt: '' }, where);
    expect(reads).toBe(8);
    for (let step = 0; step < 1023; step++) machine.tick(where);
    expect(reads).toBe(8);
    machine.tick(where);
    expect(reads).toBe(9);
    expect(machine.spent()).toBe(4056);
    for (let step = 4056; step < 5000; step++) machine.tick(where);
    expect(machine.spent()).toBe(5000);
    expect(() => machine.tick(where)).toThrow(ScriptError);
    expect(machine.spent()).toBe(5000);
  });
});
