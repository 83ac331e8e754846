import { describe, expect, it } from 'vitest';
import type { Program } from '../ast/index.ts';
import { parse } from '../parse/index.ts';
import { evaluateProgram } from './evaluate-program.ts';
import type { EvaluationInput } from './evaluation-types.ts';
import type { HostBridge, HostEvent, HostRequest } from './host-bridge.ts';

function program(source: string): Program {
  const result = parse(source);
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  return result.program;
}

function command(body: string): Program {
  return program(`command\n${body}\nendcommand\n`);
}

function host(overrides: Partial<HostBridge> = {}): HostBridge {
  return { request: () => ({ ok: true, value: null }), now: () => 0, ...overrides };
}

function run(input: Partial<EvaluationInput> & { program: Program }, bridge = host()) {
  return evaluateProgram(input, bridge);
}

describe('evaluateProgram', () => {
  it('streams emits (with the line of the statement that wrote each) and whispers as they happen, in order', () => {
    const events: HostEvent[] = [];
    const output = run({ program: command('emit "a"\nwhisper "t", 1\nemit "b"'), stream: true }, host({ event: (event) => events.push(event) }));
    expect(events).toEqual([
      { kind: 'emit', text: 'a', line: 2 },
      { kind: 'whisper', target: 't', text: '1' },
      { kind: 'emit', text: 'b', line: 4 },
    ]);
    expect(output.emits).toEqual(['a', 'b']);
    expect(output.emitLines).toEqual([2, 4]);
  });

  it('spends fuel deterministically: the same program stops at the same place', () => {
    const source = command('set i = 0\nwhile true\n  set i = i + 1\n  emit i\nendwhile');
    const first = run({ program: source, limits: { fuel: 1234, loopIterations: 1e9 } });
    const second = run({ program: source, limits: { fuel: 1234, loopIterations: 1e9 } });
    expect(first.error?.code).toBe('SCRIPT_FUEL_EXHAUSTED');
    expect(second).toEqual(first);
    expect(first.fuel).toBe(1234);
  });

  it('passes tool arguments as JSON data and converts results back', () => {
    const requests: HostRequest[] = [];
    const output = run(
      { program: command('set r = tool.Test.Echo({"b": [1, nil], "a": true}, "x")\nemit r["k"]') },
      host({
        request: (request) => {
          requests.push(request);
          return { ok: true, value: { k: [1, { z: null }] } };
        },
      }),
    );
    expect(requests).toEqual([{ kind: 'tool', name: 'tool.test.echo', args: [{ a: true, b: [1, null] }, 'x'] }]);
    expect(output.emits).toEqual(['[1, {"z": nil}]']);
    expect(output.toolCalls).toBe(1);
  });

  it('turns a host failure into a catchable script error with the host code', () => {
    const output = run(
      { program: command('set r = tool.x.y()') },
      host({ request: () => ({ ok: false, error: { code: 'SCRIPT_TOOL_DENIED', message: 'denied' } }) }),
    );
    expect(output.error).toMatchObject({ code: 'SCRIPT_TOOL_DENIED', numericCode: 1003, line: 2 });
  });

  it('reports an exception thrown by the host bridge as SCRIPT_INTERNAL without crashing', () => {
    const output = run(
      { program: command('set r = tool.x.y()') },
      host({
        request: () => {
          throw new TypeError('bridge broke');
        },
      }),
    );
    expect(output.error?.code).toBe('SCRIPT_INTERNAL');
    expect(output.error?.message).toContain('bridge broke');
  });

  it('stops at the wall-clock deadline', () => {
    let now = 0;
    const output = run(
      { program: command('while true\n  set x = 1\nendwhile'), limits: { wallMs: 10, loopIterations: 1e9 }, startedAt: 0 },
      host({ now: () => (now += 1) }),
    );
    expect(output.error?.code).toBe('SCRIPT_TIMEOUT');
  });

  it('records call frames innermost first', () => {
    const library = program('func outer() means\n  call inner()\nendfunc\n\nfunc inner() means\n  fail "deep"\nendfunc\n');
    const output = run({ program: command('call outer()'), libraries: [library] });
    expect(output.error?.frames).toEqual([
      { name: 'inner', line: 6, column: 3 },
      { name: 'outer', line: 2, column: 8 },
      { name: 'command', line: 2, column: 6 },
    ]);
  });

  it('exposes read-only globals such as userdata', () => {
    const output = run({ program: command('emit userdata["name"]\nemit self\nset userdata = 1'), globals: { userdata: { name: 'ada' } } });
    expect(output.emits).toEqual(['ada', 'default_self_buffer']);
    expect(output.error?.code).toBe('SCRIPT_GLOBAL_READ_ONLY');
  });

  it('survives deep recursion when the call-depth limit is set very high', () => {
    const library = program('func down(needs n) means\n  call down(n + 1)\nendfunc\n');
    const output = run({ program: command('call down(0)'), libraries: [library], limits: { callDepth: 1e9, fuel: 1e9 } });
    expect(output.error?.code).toBe('SCRIPT_CALL_DEPTH');
  });

  it('refuses duplicate function names across libraries', () => {
    const library = program('func f() means\n  emit 1\nendfunc\n');
    const output = run({ program: command('call f()'), libraries: [library, library] });
    expect(output.error?.code).toBe('SCRIPT_DUPLICATE_FUNCTION');
  });
});
