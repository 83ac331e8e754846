import { describe, expect, it } from 'vitest';
import { sourceLineOf, systemErrorLine } from './system-error-output.ts';

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
