/**
 * The evaluation conformance suite: every folder here holds `input.ns` (a
 * command script), optionally `library.ns`, and `expected.json` (emits,
 * whispers, error code/line/message substring, limits). Each case runs
 * in-process (the evaluator called directly) and through the real sandbox
 * pool (parse → check → isolate), and both must give the expected result.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Program } from '../../../src/ast/index.ts';
import { evaluateProgram, type HostBridge } from '../../../src/evaluate/index.ts';
import { parse } from '../../../src/parse/index.ts';
import { createInterpreter, type ToolBridge } from '../../../src/run/index.ts';
import { mapHostFailure } from '../../../src/run/map-host-failure.ts';
import type { RunLimits } from '../../../src/runtime/index.ts';
import { createSandboxPool } from '../../../src/sandbox/index.ts';

interface Expected {
  readonly description?: string;
  readonly emits: string[];
  readonly whispers?: Record<string, string>;
  readonly error: { code: string; kind?: string; line?: number; message?: string } | null;
  /**
   * Set when `prepare` refuses the case before it runs (through the
   * interpreter): the diagnostic it gives. The in-process evaluation still
   * expects `error`, its run-time backstop.
   */
  readonly checkError?: { code: string; line: number };
  /** The warnings `prepare` gives (a run-time error it foresees, `SCRIPT_VARIABLE_UNSET`); none when left out. */
  readonly warnings?: { code: string; line: number }[];
  readonly limits?: Partial<RunLimits>;
}

const ROOT = import.meta.dirname;
const cases = readdirSync(ROOT, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** The tools every case may call (test doubles). */
function mockTool(name: string, args: readonly unknown[]): unknown {
  switch (name) {
    case 'tool.test.echo':
      return args;
    case 'tool.test.object':
      return { name: 'box', items: [1, 2] };
    case 'tool.test.fail':
      throw Object.assign(new Error('boom'), { code: 'TOOL_FAILED' });
    default:
      throw Object.assign(new Error(`tool '${name}' not found`), { code: 'TOOL_NOT_FOUND' });
  }
}

const inProcessHost: HostBridge = {
  request(request) {
    if (request.kind === 'ask') return { ok: false, error: { code: 'SCRIPT_ASK_UNAVAILABLE', message: 'no orchestrator' } };
    if (request.kind === 'promptuser') return { ok: false, error: { code: 'SCRIPT_PROMPT_UNAVAILABLE', message: 'no prompt' } };
    try {
      return { ok: true, value: JSON.parse(JSON.stringify(mockTool(request.name, request.args))) };
    } catch (error) {
      return { ok: false, error: mapHostFailure(error, `tool '${request.name}'`) };
    }
  },
  now: () => Date.now(),
};

function load(name: string): { source: string; library: string | null; expected: Expected } {
  const folder = join(ROOT, name);
  const libraryFile = join(folder, 'library.ns');
  return {
    source: readFileSync(join(folder, 'input.ns'), 'utf8'),
    library: existsSync(libraryFile) ? readFileSync(libraryFile, 'utf8') : null,
    expected: JSON.parse(readFileSync(join(folder, 'expected.json'), 'utf8')) as Expected,
  };
}

function parsed(source: string): Program {
  const result = parse(source);
  if (!result.ok) throw new Error(`parse failed: ${JSON.stringify(result.diagnostics)}`);
  return result.program;
}

function whispersOf(list: readonly { target: string; text: string }[]): Record<string, string> {
  const byTarget = new Map<string, string>();
  for (const { target, text } of list) byTarget.set(target, byTarget.has(target) ? `${byTarget.get(target)}\n${text}` : text);
  return Object.fromEntries(byTarget);
}

function expectOutcome(
  actual: { emits: readonly string[]; whispers: Record<string, string>; error: { code: string; kind: string; line: number; message: string } | null },
  expected: Expected,
): void {
  expect(actual.emits).toEqual(expected.emits);
  if (expected.whispers !== undefined) expect(actual.whispers).toEqual(expected.whispers);
  if (expected.error === null) {
    expect(actual.error).toBeNull();
    return;
  }
  expect(actual.error?.code).toBe(expected.error.code);
  if (expected.error.kind !== undefined) expect(actual.error?.kind).toBe(expected.error.kind);
  if (expected.error.line !== undefined) expect(actual.error?.line).toBe(expected.error.line);
  if (expected.error.message !== undefined) expect(actual.error?.message).toContain(expected.error.message);
}

describe('evaluation conformance (in-process)', () => {
  it('has at least 80 cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(80);
  });
  for (const name of cases) {
    it(name, () => {
      const { source, library, expected } = load(name);
      const output = evaluateProgram(
        { program: parsed(source), libraries: library === null ? [] : [parsed(library)], ...(expected.limits ? { limits: expected.limits } : {}) },
        inProcessHost,
      );
      expectOutcome({ emits: output.emits, whispers: whispersOf(output.whispers), error: output.error }, expected);
    });
  }
});

describe('evaluation conformance (sandbox)', () => {
  const pool = createSandboxPool({ workers: 1 });
  afterAll(() => pool.close());
  const interpreter = createInterpreter({ pool });
  const tools: ToolBridge = { call: async (name, args) => mockTool(name, args) };
  for (const name of cases) {
    it(name, async () => {
      const { source, library, expected } = load(name);
      const result = await interpreter.run(source, {
        mode: 'host',
        tools,
        libraries: library === null ? [] : [library],
        ...(expected.limits ? { limits: expected.limits } : {}),
      });
      if (expected.checkError !== undefined) {
        expect(result.diagnostics.map(({ code, line }) => ({ code, line }))).toEqual([expected.checkError]);
        expect(result.emits).toEqual([]);
        expect(result.error).toMatchObject({ code: expected.checkError.code, kind: 'check', line: expected.checkError.line });
        return;
      }
      const warnings = (expected.warnings ?? []).map((warning) => ({ ...warning, severity: 'warning' }));
      expect(result.diagnostics.map(({ code, line, severity }) => ({ code, line, severity }))).toEqual(warnings);
      expectOutcome(result, expected);
    });
  }
});
