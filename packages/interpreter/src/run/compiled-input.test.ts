/**
 * What `execute` sends into the sandbox: the program compiled in the host (no
 * AST), and compile errors reported through the sandbox exactly as the
 * evaluator reports them in-process.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { Program } from '../ast/index.ts';
import { evaluateProgram } from '../evaluate/index.ts';
import { parse } from '../parse/index.ts';
import { createSandboxPool, type SandboxRunRequest } from '../sandbox/index.ts';
import { createInterpreter } from './create-interpreter.ts';
import type { JsonValue } from '../runtime/index.ts';
import { runLimits } from './run-limits.ts';
import type { PreparedProgram, SandboxRunner } from './run-types.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

/** The real pool, recording each request's input. */
function recordingPool(inputs: unknown[]): SandboxRunner {
  return {
    run(request: SandboxRunRequest) {
      inputs.push(request.input);
      return pool.run(request);
    },
  };
}

function parsed(source: string): Program {
  const result = parse(source);
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  return result.program;
}

const LIBRARY = 'func score(needs item optional weight) means\n  if weight == nil\n    set weight = 1\n  endif\n  return len(item["name"]) * weight\nendfunc\n';

/** A sizable program: loops, maps, interpolation and calls, about 3 KB of source. */
function sizable(): string {
  const lines = ['command', '  set total = 0'];
  for (let i = 0; i < 40; i++) {
    lines.push(`  set item${i} = {"name": "item number ${i}", "tags": [${i}, ${i + 1}, "t${i}"]}`);
    lines.push(`  set total = total + score(item${i}, ${i % 3})`);
    if (i % 10 === 0) lines.push(`  for each tag in item${i}["tags"]`, `    emit \`\`\`tag {{tag}} of ${i}\`\`\``, '  endfor');
  }
  lines.push('  emit total', 'endcommand');
  return `${lines.join('\n')}\n`;
}

describe('the input execute sends into the sandbox', () => {
  it('carries the compiled program and no AST, and is smaller than the AST for a sizable program', async () => {
    const inputs: unknown[] = [];
    const interpreter = createInterpreter({ pool: recordingPool(inputs) });
    const prepared = await interpreter.prepare(sizable(), { mode: 'host', libraries: [LIBRARY] });
    if (!prepared.ok) throw new Error(JSON.stringify(prepared.diagnostics));
    const result = await interpreter.execute(prepared.prepared);
    expect(result.error).toBeNull();
    expect(result.emits).toEqual(evaluateProgram({ program: prepared.prepared.program, libraries: prepared.prepared.libraries }, { request: () => ({ ok: true, value: null }), now: () => 0 }).emits);
    expect(inputs).toHaveLength(1);
    const input = inputs[0] as Record<string, unknown>;
    expect(Object.keys(input)).not.toContain('program');
    expect(Object.keys(input)).not.toContain('libraries');
    const compiled = input['compiled'] as { source: unknown; constants: unknown; positions: unknown };
    expect(typeof compiled.source).toBe('string');
    expect(Array.isArray(compiled.constants)).toBe(true);
    expect(Array.isArray(compiled.positions)).toBe(true);
    // No node of the AST travels: no `"type":` keys anywhere in the input.
    expect(JSON.stringify(input)).not.toContain('"type":');
    expect(JSON.stringify(input).length).toBeLessThan(JSON.stringify([prepared.prepared.program, prepared.prepared.libraries]).length);
  });

  it('never puts text of the script into the generated source it sends', async () => {
    const inputs: unknown[] = [];
    const interpreter = createInterpreter({ pool: recordingPool(inputs) });
    const result = await interpreter.run('command\n  set pwned_name = "pwned_text"\n  emit pwned_name\nendcommand\n', { mode: 'host' });
    expect(result.emits).toEqual(['pwned_text']);
    expect((inputs[0] as { compiled: { source: string } }).compiled.source).not.toContain('pwned');
  });

  // A function defined twice is refused by `prepare`; a prepared program built by hand reaches the code
  // generator, whose error must come back from the sandbox as the evaluator reports it in-process.
  it('reports a compile error through the sandbox exactly as the evaluator does in-process', async () => {
    const duplicate = parsed(readFileSync(new URL('../../test/conformance/check/duplicate-function/input.ns', import.meta.url), 'utf8'));
    const library = parsed('func g() means\n  return 1\nendfunc\n');
    const cases: { program: Program; libraries: Program[] }[] = [
      { program: duplicate, libraries: [] },
      { program: parsed('command\n  emit "never"\n  call g()\nendcommand\n'), libraries: [library, library] },
    ];
    for (const { program, libraries } of cases) {
      const inputs: unknown[] = [];
      const emitted: string[] = [];
      const interpreter = createInterpreter({ pool: recordingPool(inputs) });
      const prepared: PreparedProgram = { mode: 'host', program, libraries, approvedTools: [] };
      const result = await interpreter.execute(JSON.parse(JSON.stringify(prepared)) as PreparedProgram, { onEmit: (text) => emitted.push(text) });
      const inProcess = evaluateProgram({ program, libraries }, { request: () => ({ ok: true, value: null }), now: () => 0 });
      expect(inProcess.error?.code).toBe('SCRIPT_DUPLICATE_FUNCTION');
      expect(result.ok).toBe(false);
      expect(result.error).toEqual(inProcess.error);
      expect(result.emits).toEqual([]);
      expect(emitted).toEqual([]);
      expect(result.usage.fuel).toBe(0);
      expect(result.usage.toolCalls).toBe(0);
      // The error went through the sandbox (as it did when the isolate compiled the program).
      expect(inputs).toHaveLength(1);
      expect((inputs[0] as { compiled: { error: { code: string } } }).compiled.error.code).toBe('SCRIPT_DUPLICATE_FUNCTION');
    }
  });

  // The isolate sees the limits and globals after a JSON trip; the host must compile against the same.
  it('compiles against the limits and globals as the isolate receives them, Infinity being no limit', async () => {
    const interpreter = createInterpreter({ pool });
    const source = 'command\n  set ghost = 1\n  emit ghost\n  set odd = 3\n  emit odd\n  set n = 0\n  while n < 3\n    set n = n + 1\n  endwhile\n  emit n\n  emit [1, 2]\n  fail\nendcommand\n';
    // `odd` serialises to nothing through its toJSON, so it does not arrive either.
    const globals = { ghost: undefined, gone: () => 1, odd: { toJSON: () => undefined } } as unknown as Record<string, JsonValue>;
    const limits = { loopIterations: Infinity, collectionSize: Infinity, fuel: Infinity };
    const result = await interpreter.run(source, { mode: 'host', globals, userdata: { a: 1 }, limits });
    const sent = JSON.parse(JSON.stringify({ globals: { ...globals, userdata: { a: 1 } }, limits: runLimits(limits) }));
    const inProcess = evaluateProgram({ program: parsed(source), globals: sent.globals, limits: sent.limits }, { request: () => ({ ok: true, value: null }), now: () => 0 });
    expect(result.emits).toEqual(inProcess.emits);
    expect(result.error).toEqual(inProcess.error);
    // `ghost` and `odd` did not reach the isolate, so they are ordinary variables there and here.
    expect(result.emits.slice(0, 2)).toEqual(['1', '3']);
    // No limit is no limit (it once arrived as null: "ran out of fuel after null steps" at the first statement);
    // the run ends at its last line, a bare fail.
    expect(result.emits.slice(2)).toEqual(['3', '[1, 2]']);
    expect(result.error).toMatchObject({ code: 'SCRIPT_FAIL', line: 12 });
  });

  it('rejects a limit that is not a number >= 0, naming it, and an unbounded memoryMb', async () => {
    const interpreter = createInterpreter({ pool });
    for (const [limits, message] of [
      [{ fuel: Number.NaN }, 'limit fuel must be a number >= 0 (Infinity for no limit), got NaN'],
      [{ wallMs: -1 }, 'limit wallMs must be a number >= 0 (Infinity for no limit), got -1'],
      [{ memoryMb: Infinity }, 'limit memoryMb must be a finite number of MiB, got Infinity'],
    ] as const) {
      await expect(interpreter.run('command\n  emit "x"\nendcommand\n', { limits })).rejects.toMatchObject({ code: 'SANDBOX_INVALID_REQUEST', message });
    }
    // A wall clock with no limit runs (its timers wait at most 2^31 - 1 ms at a time).
    expect(await interpreter.run('command\n  emit "x"\nendcommand\n', { limits: { wallMs: Infinity } })).toMatchObject({ error: null, emits: ['x'] });
  });
});
