/**
 * Errors of kind quota, timeout and internal skip `on error` handlers (in
 * functions and in command blocks): a handler that could catch and clear them
 * would keep a runaway going until only fuel stopped it.
 */
import { describe, expect, it } from 'vitest';
import { parse } from '../parse/index.ts';
import { errorKind, type RunLimits } from '../runtime/index.ts';
import { evaluateProgram } from './evaluate-program.ts';
import type { HostBridge } from './host-bridge.ts';

const LIBRARY = `func guarded(needs n) means
  on error do
    emit "function handler saw " + system_error_code
    clear_error
  endon
  call work(n)
endfunc

func down(needs n) means
  call down(n + 1)
endfunc
`;

function programOf(source: string) {
  const result = parse(source);
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  return result.program;
}

/** A command whose handler would clear any error, calling `work` through a function with its own handler. */
function guarded() {
  return programOf(`command\n  on error do\n    emit "command handler saw " + system_error_code\n    clear_error\n  endon\n  emit "start"\n  call guarded(0)\n  emit "after"\nendcommand\n`);
}

const cases: [string, string, Partial<RunLimits>, Partial<HostBridge>?][] = [
  ['SCRIPT_FUEL_EXHAUSTED', 'while true\n    set x = 1\n  endwhile', { fuel: 200, loopIterations: 1e9 }],
  ['SCRIPT_LOOP_LIMIT', 'while true\n    set x = 1\n  endwhile', { loopIterations: 50 }],
  ['SCRIPT_CALL_DEPTH', 'call down(0)', { callDepth: 30 }],
  ['SCRIPT_VALUE_TOO_LARGE', 'set s = "ab" * 20', { stringLength: 10 }],
  ['SCRIPT_OUTPUT_LIMIT', 'while true\n    emit "0123456789"\n  endwhile', { outputBytes: 100 }],
  ['SCRIPT_SCRATCHPAD_LIMIT', 'while true\n    whisper "t", "0123456789"\n  endwhile', { scratchpadBytes: 100 }],
  ['SCRIPT_TOOL_CALL_LIMIT', 'while true\n    call tool.t.x()\n  endwhile', { toolCalls: 3 }],
];

describe('scratchpadBytes', () => {
  it("counts each whisper's target with its text: empty whispers to a long target cannot carry more than the limit", () => {
    const program = programOf('command\n  set t = "x" * 1000\n  set i = 0\n  while i < 1000\n    whisper t, ""\n    set i = i + 1\n  endwhile\nendcommand\n');
    const output = evaluateProgram({ program, limits: { scratchpadBytes: 100_000 } }, { request: () => ({ ok: true, value: null }), now: () => 0 });
    expect(output.error).toMatchObject({ code: 'SCRIPT_SCRATCHPAD_LIMIT', line: 5, message: expect.stringContaining("each whisper's target counts with its text") });
    // 99 whispers of 1,001 bytes fit in 100,000; the 100th does not.
    expect(output.whispers).toHaveLength(99);
  });
});

describe('quota errors skip on error handlers', () => {
  for (const [code, body, limits] of cases) {
    it(`${code} stops the run past every handler`, () => {
      const library = programOf(`${LIBRARY}\nfunc work(needs n) means\n  ${body}\nendfunc\n`);
      const output = evaluateProgram({ program: guarded(), libraries: [library], limits }, { request: () => ({ ok: true, value: null }), now: () => 0 });
      expect(output.error?.code).toBe(code);
      expect(errorKind(code)).toBe('quota');
      expect(output.emits.filter((text) => text.includes('handler saw'))).toEqual([]);
      expect(output.emits).not.toContain('after');
    });
  }

  it('SCRIPT_TIMEOUT stops the run past every handler', () => {
    let clock = 0;
    const library = programOf(`${LIBRARY}\nfunc work(needs n) means\n  while true\n    set x = 1\n  endwhile\nendfunc\n`);
    const output = evaluateProgram(
      { program: guarded(), libraries: [library], limits: { wallMs: 1000, loopIterations: 1e9, fuel: 1e9 } },
      { request: () => ({ ok: true, value: null }), now: () => (clock += 10) },
    );
    expect(output.error).toMatchObject({ code: 'SCRIPT_TIMEOUT', kind: 'timeout' });
    expect(output.emits).toEqual(['start']);
  });

  it('a runtime error is still caught and cleared', () => {
    const library = programOf(`${LIBRARY}\nfunc work(needs n) means\n  fail "boom"\nendfunc\n`);
    const output = evaluateProgram({ program: guarded(), libraries: [library] }, { request: () => ({ ok: true, value: null }), now: () => 0 });
    expect(output.error).toBeNull();
    expect(output.emits).toEqual(['start', 'function handler saw SCRIPT_FAIL', 'after']);
  });
});

describe('a string past the engine limit with stringLength unbounded', () => {
  const host: HostBridge = { request: () => ({ ok: true, value: null }), now: () => 0 };
  it('is SCRIPT_VALUE_TOO_LARGE at its line, not a stack overflow at line 0', () => {
    for (const body of ['set s = "x"\n  while true\n    set s = s + s\n  endwhile', 'emit "ab" * 1000000000']) {
      const output = evaluateProgram({ program: programOf(`command\n  ${body}\nendcommand\n`), limits: { stringLength: Infinity } }, host);
      expect(output.error).toMatchObject({ code: 'SCRIPT_VALUE_TOO_LARGE', message: expect.stringContaining('longest string the engine can hold') });
      expect(output.error?.line).toBeGreaterThan(1);
    }
  });
});
