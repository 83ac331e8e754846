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

  it('finds source lines by 1-based number', () => {
    expect(sourceLineOf('command\n  emit 1\nendcommand', 2)).toBe('emit 1');
    expect(sourceLineOf('command', 5)).toBeUndefined();
    expect(sourceLineOf('command', 0)).toBeUndefined();
  });
});
