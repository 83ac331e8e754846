import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES } from '../parse/diagnostic-codes.ts';
import { SANDBOX_ERROR_CODES } from '../sandbox/sandbox-error.ts';
import { errorKind, numericCodeOf, SCRIPT_ERROR_CODES, skipsHandlers, type ErrorCodeInfo } from './error-codes.ts';

const packageRoot = join(import.meta.dirname, '..', '..');
const codes = Object.keys(SCRIPT_ERROR_CODES);
const table: Record<string, ErrorCodeInfo> = SCRIPT_ERROR_CODES;

/** Every non-test source file of the package, recursively. */
function sources(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.includes('.generated.') ? [path] : [];
  });
}

describe('SCRIPT_ERROR_CODES', () => {
  it('is sorted and holds every diagnostic and sandbox code', () => {
    expect(codes).toEqual([...codes].sort());
    expect(codes).toEqual(expect.arrayContaining([...DIAGNOSTIC_CODES, ...SANDBOX_ERROR_CODES]));
  });

  it('lists every code the sources emit', () => {
    const emitted = new Set<string>();
    for (const file of sources(join(packageRoot, 'src'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(/['"`]((?:SCRIPT|SANDBOX)_[A-Z_]+)['"`]/g)) emitted.add(match[1] as string);
    }
    const tableNames = new Set(['SCRIPT_ERROR_CODES', 'SANDBOX_ERROR_CODES']);
    expect([...emitted].filter((code) => !codes.includes(code) && !tableNames.has(code))).toEqual([]);
    expect(emitted.has('SCRIPT_ABORTED')).toBe(true);
  });

  it('gives every code a fix, and an unknown code the kind internal', () => {
    for (const code of codes) expect(table[code]?.fix.length).toBeGreaterThan(3);
    expect(errorKind('SCRIPT_LOOP_LIMIT')).toBe('quota');
    expect(errorKind('SCRIPT_TOOL_DENIED')).toBe('permission');
    expect(errorKind('NOT_A_CODE')).toBe('internal');
    expect(errorKind('constructor')).toBe('internal');
    expect(numericCodeOf('SCRIPT_TOOL_DENIED')).toBe(1003);
    expect(numericCodeOf('toString')).toBeUndefined();
  });

  it('gives the fixes a model is shown in words it can act on', () => {
    // The controller shows a run-time code's fix to the model: no syntax the model was never shown, no "convert first" for a nil.
    expect(table.SCRIPT_VARIABLE_UNSET?.fix).not.toMatch(/\{\{|'''/);
    expect(table.SCRIPT_VARIABLE_UNSET?.fix).toContain('`"hello"`');
    expect(table.SCRIPT_TYPE_MISMATCH?.fix).toContain('tool.map.Get(m, k, 0)');
    expect(table.SCRIPT_FUNCTION_UNKNOWN?.fix).toMatch(/^Write what the message names instead/);
  });

  it('lets on error handlers see only what a script can recover from', () => {
    const skipping = codes.filter((code) => skipsHandlers(errorKind(code)) && code.startsWith('SCRIPT_'));
    expect(skipping).toEqual([
      'SCRIPT_ABORTED',
      'SCRIPT_CALL_DEPTH',
      'SCRIPT_FUEL_EXHAUSTED',
      'SCRIPT_INTERNAL',
      'SCRIPT_LOOP_LIMIT',
      'SCRIPT_MEMORY_LIMIT',
      'SCRIPT_OUTPUT_LIMIT',
      'SCRIPT_SCRATCHPAD_LIMIT',
      'SCRIPT_TIMEOUT',
      'SCRIPT_TOOL_CALL_LIMIT',
      'SCRIPT_TOOL_DATA_LIMIT',
      'SCRIPT_VALUE_TOO_LARGE',
    ]);
  });

  it('is the README error table (code, numeric, kind, fix)', () => {
    const readme = readFileSync(join(packageRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Error codes\n'), readme.indexOf('\n## ', readme.indexOf('## Error codes\n') + 1));
    const rows = section
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => {
        const cells = line.replace(/\\\|/g, '\u0000').split('|').map((cell) => cell.trim().replace(/\u0000/g, '\\|'));
        return { code: (cells[1] as string).replaceAll('`', ''), numeric: cells[2], kind: cells[3], fix: cells[5] };
      });
    expect(rows).toEqual(
      codes.map((code) => ({ code, numeric: table[code]?.numericCode === undefined ? '–' : String(table[code]?.numericCode), kind: table[code]?.kind, fix: table[code]?.fix })),
    );
  });
});
