import { describe, expect, it } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import type { ToolValue } from '../spec/tool-value.ts';
import { createMathTools } from './math-tools.ts';

const host = hostFor([createMathTools()]);

const cases: [string, ToolValue[], ToolValue][] = [
  ['math.Add', [1, 2.5], 3.5],
  ['math.Add', ['1', '2'], 3],
  ['math.Subtract', [1, 3], -2],
  ['math.Multiply', [1.5, 2], 3],
  ['math.Divide', [7, 2], 3.5],
  ['math.Modulo', [7, 3], 1],
  ['math.Modulo', [-7, 3], -1],
];

const failures: [string, ToolValue[], string, number][] = [
  ['math.Add', ['x', 1], 'TOOL_ARGUMENT_INVALID', 4],
  ['math.Divide', [1, 0], 'MATH_DIVISION_BY_ZERO', 14],
  ['math.Modulo', [1, 0], 'MATH_DIVISION_BY_ZERO', 14],
  ['math.Modulo', [1.5, 1], 'TOOL_ARGUMENT_INVALID', 4],
  ['math.Multiply', [1e308, 10], 'TOOL_VALUE_INVALID', 41],
];

describe('tool.math.*', () => {
  it.each(cases)('%s(%j) → %j', async (name, args, expected) => {
    expect(await host.call(`tool.${name}`, args)).toEqual(expected);
  });

  it.each(failures)('%s(%j) fails with %s', async (name, args, code, referenceCode) => {
    const error = await host.fail(`tool.${name}`, args);
    expect([error.code, error.referenceCode]).toEqual([code, referenceCode]);
  });
});
