import { describe, expect, it } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import type { ToolValue } from '../spec/tool-value.ts';
import { createListTools } from './list-tools.ts';

const host = hostFor([createListTools()]);

const cases: [string, ToolValue[], ToolValue][] = [
  ['Length', [[1, 2, 3]], 3],
  ['Append', [[1], 2], [1, 2]],
  ['Append', [[1]], [1, null]],
  ['Prepend', [[1], 0], [0, 1]],
  ['Get', [['a', 'b'], 1], 'b'],
  ['Get', [['a', 'b'], 5, 'none'], 'none'],
  ['Get', [['a', 'b'], -1], null],
  ['Slice', [[1, 2, 3, 4], 1, 3], [2, 3]],
  ['Slice', [[1, 2], 2, 2], []],
  ['Contains', [[1, { a: [2] }], { a: [2] }], true],
  ['Contains', [[1, 2], '1'], false],
  ['Reverse', [[1, 2, 3]], [3, 2, 1]],
  ['Sort', [[3, 1, 2]], [1, 2, 3]],
  ['Sort', [[10, 9, 100]], [9, 10, 100]],
  ['Sort', [['b', 'a', 'B']], ['B', 'a', 'b']],
  // A lone surrogate has the UTF-8 bytes of U+FFFD: ties go by UTF-16 units, so the result is one list whatever the input order.
  ['Sort', [['a\uFFFD', 'a\uDC00', 'b', 'a\uD800']], ['a\uD800', 'a\uDC00', 'a\uFFFD', 'b']],
  ['Sort', [['a\uD800', 'b', 'a\uDC00', 'a\uFFFD']], ['a\uD800', 'a\uDC00', 'a\uFFFD', 'b']],
  ['Sort', [[]], []],
  ['Head', [[1, 2]], 1],
  ['Head', [[]], null],
  ['Rest', [[1, 2, 3]], [2, 3]],
  ['Rest', [[]], []],
  ['Tail', [[1, 2, 3], 2], [2, 3]],
  ['Tail', [[1, 2, 3], 10], [1, 2, 3]],
  ['Tail', [[1, 2, 3], 0], []],
  // Regression: a negative count gives [] (Go), it used to fail.
  ['Tail', [[1, 2, 3], -1], []],
  ['IsEmpty', [[]], true],
  ['IsEmpty', [[null]], false],
];

const failures: [string, ToolValue[], string][] = [
  ['Length', ['abc'], 'TOOL_ARGUMENT_INVALID'],
  ['Length', [{ a: 1 }], 'TOOL_ARGUMENT_INVALID'],
  ['Get', [[1]], 'TOOL_ARGUMENT_MISSING'],
  ['Get', [[1], 'x'], 'TOOL_ARGUMENT_INVALID'],
  ['Slice', [[1, 2], 1, 3], 'TOOL_VALUE_BOUNDS'],
  ['Slice', [[1, 2], 2, 1], 'TOOL_VALUE_BOUNDS'],
  ['Sort', [[1, 'a']], 'TOOL_VALUE_TYPE'],
];

describe('tool.list.*', () => {
  it.each(cases)('%s(%j) → %j', async (name, args, expected) => {
    expect(await host.call(`tool.list.${name}`, args)).toEqual(expected);
  });

  it.each(failures)('%s(%j) fails with %s', async (name, args, code) => {
    expect((await host.fail(`tool.list.${name}`, args)).code).toBe(code);
  });

  it('returns new lists and leaves the argument alone', async () => {
    const original = [3, 1, 2];
    await host.call('tool.list.Sort', [original]);
    await host.call('tool.list.Reverse', [original]);
    expect(original).toEqual([3, 1, 2]);
  });

  it('names the reference code for a mixed sort (7, Type)', async () => {
    const error = await host.fail('tool.list.Sort', [[1, 'a']]);
    expect([error.referenceCode, error.message]).toEqual([7, 'tool.list.Sort sorts lists of only numbers or only strings (pack list)']);
  });
});
