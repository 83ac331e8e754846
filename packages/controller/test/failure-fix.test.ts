/**
 * A run-time error goes back to the model with how to fix it: the OUTPUT's
 * SYSTEM_ERROR line says what failed and where, and the next turn's system
 * text adds the fix for its code, in words for the program's author (never
 * a host option such as `--fuel`). OUTPUT itself is unchanged, so a session
 * recorded before still replays the same.
 */
import { createSandboxPool, SCRIPT_ERROR_CODES } from '@askloop/interpreter';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { failureFixLine } from '../src/loop/failure-fix.ts';
import { systemErrorLine } from '../src/loop/system-error-output.ts';
import type { TurnFailure } from '../src/loop/turn-record.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());

const program = (...lines: string[]) => envelope(['command', ...lines.map((line) => `  ${line}`), 'endcommand'].join('\n'));
const failure = (code: string, kind: TurnFailure['kind'] = 'runtime'): TurnFailure => ({ code, kind, message: 'm' }) as TurnFailure;

describe('failureFixLine', () => {
  it("says the interpreter's fix for a run-time error, as a sentence", () => {
    expect(failureFixLine(failure('SCRIPT_INDEX_OUT_OF_RANGE'))).toBe('How to fix SCRIPT_INDEX_OUT_OF_RANGE (the SYSTEM_ERROR line in OUTPUT): Check `len(list)` first.');
    expect(failureFixLine(failure('SCRIPT_DIVISION_BY_ZERO'))).toBe('How to fix SCRIPT_DIVISION_BY_ZERO (the SYSTEM_ERROR line in OUTPUT): Check the divisor first.');
    expect(failureFixLine(failure('SCRIPT_VARIABLE_UNSET'))).toMatch(/^How to fix SCRIPT_VARIABLE_UNSET .*`"hello"`, not `hello`\.$/);
    // Latin-1 only, as the rest of the system text (a `…` in a fix becomes `...`).
    for (const code of Object.keys(SCRIPT_ERROR_CODES)) expect(failureFixLine(failure(code)) ?? '', code).toMatch(/^[^\u0100-\uffff]*$/);
  });

  it("words a quota's fix for the program, never a host option", () => {
    const fuel = failureFixLine(failure('SCRIPT_FUEL_EXHAUSTED', 'quota'));
    expect(fuel).toBe('How to fix SCRIPT_FUEL_EXHAUSTED (the SYSTEM_ERROR line in OUTPUT): Do less work in one turn and leave the rest for the next.');
    expect(failureFixLine(failure('SCRIPT_TIMEOUT', 'timeout'))).not.toContain('--timeout-ms');
  });

  it("tells a program refused a tool what it can do, not the operator's fix its message ends with (a reviewer playing the model)", () => {
    const line = failureFixLine(failure('SCRIPT_TOOL_DENIED', 'permission'));
    expect(line).toBe('How to fix SCRIPT_TOOL_DENIED (the SYSTEM_ERROR line in OUTPUT): A program cannot change its policy or grants: use a listed tool, keep to what the Host rules list as granted, or say in OUTPUT what the task needs.');
    expect(line).not.toContain('change the policy.');
  });

  it('adds nothing where the message is the whole story, or for failures that are not a run-time error of the program', () => {
    for (const code of ['SCRIPT_FAIL', 'SCRIPT_MUST_FAILED', 'SCRIPT_TOOL_ERROR', 'SCRIPT_INVALID_ARGUMENT', 'SCRIPT_TOOL_ARGUMENTS']) expect(failureFixLine(failure(code)), code).toBeUndefined();
    // Check and syntax messages carry their fix already; envelope and provider failures are not the interpreter's.
    expect(failureFixLine(failure('SCRIPT_SYNTAX', 'syntax'))).toBeUndefined();
    expect(failureFixLine(failure('SCRIPT_TOOL_UNKNOWN', 'permission'))).toBeUndefined();
    expect(failureFixLine(failure('ERR_ENV_NO_ACTIONS', 'envelope' as TurnFailure['kind']))).toBeUndefined();
    expect(failureFixLine(failure('SANDBOX_MEMORY', 'quota'))).toBeUndefined();
  });
});

describe('a turn after a run-time error', () => {
  it("carries the fix in its system text; OUTPUT keeps the SYSTEM_ERROR line as before", async () => {
    const store = createMemoryTranscriptStore();
    const replies = [program('set xs = [1, 2]', 'emit xs[5]'), program('emit "<<<LOOP:DONE>>> fixed"')];
    const loop = createAskLoop({ plugins: [testPlugin({ m: replies })], store, pool });
    const result = await loop.run({ agent: { name: 'a', model: 'scripted:m' }, task: 'x' });
    expect(result).toMatchObject({ status: 'DONE', result: 'fixed', turns: 2 });
    const [first, second] = await store.listTurns(result.sid);
    expect(first?.system).not.toContain('How to fix');
    expect(first?.output).toBe(`${systemErrorLine(first!.failure!)}\n`);
    expect(second?.system.endsWith('\n\nHow to fix SCRIPT_INDEX_OUT_OF_RANGE (the SYSTEM_ERROR line in OUTPUT): Check `len(list)` first.')).toBe(true);
    await loop.close();
  });

  it('after a refused tool fed back under repair, says what the program can do instead', async () => {
    const store = createMemoryTranscriptStore();
    // The default policy does not allow the memory tools: the check refuses the program before it runs.
    const replies = [program('set v = tool.memory.Get("k")', 'emit v'), program('emit "<<<LOOP:DONE>>> without memory"')];
    const loop = createAskLoop({ plugins: [testPlugin({ m: replies })], store, pool });
    const result = await loop.run({ agent: { name: 'a', model: 'scripted:m', repair: 1 }, task: 'x' });
    expect(result).toMatchObject({ status: 'DONE', turns: 2 });
    const [first, second] = await store.listTurns(result.sid);
    expect(first?.failure?.code).toBe('SCRIPT_TOOL_DENIED');
    expect(second?.system).toContain('How to fix SCRIPT_TOOL_DENIED (the SYSTEM_ERROR line in OUTPUT): A program cannot change its policy or grants');
    await loop.close();
  });
});
