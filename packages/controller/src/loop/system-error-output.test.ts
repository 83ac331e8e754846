import type { Diagnostic } from '@askloop/interpreter';
import { describe, expect, it } from 'vitest';
import { checkFailureOf, failureFeedback, MAX_CHECK_ERRORS_FED_BACK, sourceLineOf, systemErrorLine } from './system-error-output.ts';
import type { TurnFailure } from './turn-record.ts';

describe('systemErrorLine', () => {
  it('names the code, the place, the message and the offending line', () => {
    expect(systemErrorLine({ code: 'SCRIPT_DIVISION_BY_ZERO', kind: 'runtime', message: 'Division by zero.', line: 3, column: 11, sourceLine: 'set x = 1 / 0' }))
      .toBe('SYSTEM_ERROR SCRIPT_DIVISION_BY_ZERO at line 3, column 11: Division by zero.\n> set x = 1 / 0');
  });

  it('keeps a multi-line message on one line and leaves out an unknown place', () => {
    expect(systemErrorLine({ code: 'ERR_ENV_MARKERS_INVALID', kind: 'envelope', message: 'no START\n  marker', line: 0 })).toBe('SYSTEM_ERROR ERR_ENV_MARKERS_INVALID: no START marker');
  });

  it("says the place once when the message starts with its own 'line N: '", () => {
    expect(systemErrorLine({ code: 'ERR_ENV_MARKERS_INVALID', kind: 'envelope', message: 'line 1: the reply holds no envelope', line: 1, sourceLine: 'Sure!' })).toBe(
      'SYSTEM_ERROR ERR_ENV_MARKERS_INVALID at line 1: the reply holds no envelope\n> Sure!',
    );
    // Another line's mention stays: it is part of the message.
    expect(systemErrorLine({ code: 'ERR_ENV_ORDER', kind: 'envelope', message: 'line 2: ACTIONS before USERDATA', line: 5 })).toBe('SYSTEM_ERROR ERR_ENV_ORDER at line 5: line 2: ACTIONS before USERDATA');
  });

  it('finds source lines by 1-based number', () => {
    expect(sourceLineOf('command\n  emit 1\nendcommand', 2)).toBe('emit 1');
    expect(sourceLineOf('command', 5)).toBeUndefined();
    expect(sourceLineOf('command', 0)).toBeUndefined();
  });
});

/** A check's diagnostic of `code` at `line`, column 3. */
const diagnostic = (code: string, line: number, severity: Diagnostic['severity'] = 'error', kind = 'check'): Diagnostic =>
  ({ code, severity, kind, message: `${code} here`, line, column: 3 }) as unknown as Diagnostic;

describe('failureFeedback', () => {
  const actions = Array.from({ length: 12 }, (_, index) => `  line ${index + 1}`).join('\n');

  it('feeds back every error of a failed check in source order, each with its line, and no warning', () => {
    const diagnostics = [diagnostic('SCRIPT_TOOL_UNKNOWN', 4), diagnostic('SCRIPT_VARIABLE_UNSET', 1, 'warning'), diagnostic('SCRIPT_ASK_NOT_ALLOWED', 2, 'error', 'permission')];
    const failure = checkFailureOf(diagnostics[2] as Diagnostic, actions);
    expect(failure).toEqual({ code: 'SCRIPT_ASK_NOT_ALLOWED', kind: 'permission', message: 'SCRIPT_ASK_NOT_ALLOWED here', line: 2, column: 3, sourceLine: 'line 2' });
    expect(failureFeedback(failure, { diagnostics, actions })).toBe(
      [
        'SYSTEM_ERROR SCRIPT_ASK_NOT_ALLOWED at line 2, column 3: SCRIPT_ASK_NOT_ALLOWED here',
        '> line 2',
        'SYSTEM_ERROR SCRIPT_TOOL_UNKNOWN at line 4, column 3: SCRIPT_TOOL_UNKNOWN here',
        '> line 4',
      ].join('\n'),
    );
  });

  it(`stops at ${MAX_CHECK_ERRORS_FED_BACK} errors and says how many more there were`, () => {
    const diagnostics = [9, 3, 7, 1, 5, 11, 2].map((line) => diagnostic('SCRIPT_TOOL_UNKNOWN', line));
    const text = failureFeedback(checkFailureOf(diagnostics[3] as Diagnostic, actions), { diagnostics, actions });
    expect(text.split('\n').filter((line) => line.startsWith('SYSTEM_ERROR')).map((line) => /line (\d+)/.exec(line)?.[1])).toEqual(['1', '2', '3', '5', '7']);
    expect(text.endsWith('\n> line 7\n... and 2 more errors: the check lists them again once these are fixed.')).toBe(true);
    const six = failureFeedback(checkFailureOf(diagnostics[3] as Diagnostic, actions), { diagnostics: diagnostics.slice(0, 6), actions });
    expect(six.endsWith('\n... and 1 more error: the check lists it again once these are fixed.')).toBe(true);
  });

  it('feeds back a failure without check errors as its one line (envelope, quota after a check with warnings)', () => {
    const envelope: TurnFailure = { code: 'ERR_ENV_SECTION_MISSING', kind: 'envelope', message: 'no ACTIONS section', line: 3, sourceLine: 'USERDATA' };
    expect(failureFeedback(envelope, { diagnostics: [] })).toBe(systemErrorLine(envelope));
    const quota: TurnFailure = { code: 'SCRIPT_FUEL_EXHAUSTED', kind: 'quota', message: 'out of fuel', line: 2, column: 3, sourceLine: 'line 2' };
    expect(failureFeedback(quota, { diagnostics: [diagnostic('SCRIPT_VARIABLE_UNSET', 1, 'warning')], actions })).toBe(systemErrorLine(quota));
  });
});
