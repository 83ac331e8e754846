import { describe, expect, it } from 'vitest';
import type { ToolValueType } from '@askloop/interpreter';
import { coerceArgument, describeValue } from './coerce-argument.ts';
import type { ToolValue } from './tool-value.ts';

// Reference §2.3 coerceArg table.
const accepted: [ToolValueType, ToolValue, ToolValue][] = [
  ['string', 'abc', 'abc'],
  ['int', 42, 42],
  ['int', '42', 42],
  ['int', ' -7 ', -7],
  ['int', 3.0, 3],
  ['float', 2.5, 2.5],
  ['float', '2.5', 2.5],
  ['float', '1e3', 1000],
  ['number', 7, 7],
  ['bool', true, true],
  ['bool', 0, false],
  ['bool', 2, true],
  ['bool', 'TRUE', true],
  ['bool', '1', true],
  ['bool', 'False', false],
  ['bool', '0', false],
  ['list', [1, 'a'], [1, 'a']],
  ['map', { a: 1 }, { a: 1 }],
  ['any', { a: [1] }, { a: [1] }],
  ['nil', null, null],
];

const refused: [ToolValueType, ToolValue, string][] = [
  ['string', 42, 'a string (numbers are not converted)'],
  ['string', true, 'a string (booleans are not converted)'],
  // A list or a map: no word about numbers (a map's named-argument hint is the binder's).
  ['string', [1], 'a string'],
  ['string', { text: 'x' }, 'a string'],
  ['int', 2.5, 'an integer (or a string holding one)'],
  ['int', '2.5', 'an integer (or a string holding one)'],
  ['int', 'abc', 'an integer (or a string holding one)'],
  ['int', true, 'an integer (or a string holding one)'],
  ['int', 2 ** 60, 'an integer (or a string holding one)'],
  ['float', 'NaN', 'a number (or a string holding one)'],
  ['float', [1], 'a number (or a string holding one)'],
  ['bool', 'yes', 'a boolean (or "true"/"false"/"1"/"0", or a number)'],
  ['list', { a: 1 }, 'a list'],
  ['list', 'abc', 'a list'],
  ['map', [1], 'a map'],
  ['nil', 0, 'nil'],
];

describe('coerceArgument', () => {
  it.each(accepted)('%s accepts %j as %j', (type, input, output) => {
    expect(coerceArgument(input, type)).toEqual({ ok: true, value: output });
  });

  it.each(refused)('%s refuses %j', (type, input, expected) => {
    expect(coerceArgument(input, type)).toEqual({ ok: false, expected });
  });

  it('describes values with their NeuroScript type and a short rendering', () => {
    expect(describeValue(42)).toBe('number 42');
    expect(describeValue(null)).toBe('nil null');
    expect(describeValue('x'.repeat(100))).toMatch(/^string "x{36}\.\.\.$/);
  });
});
