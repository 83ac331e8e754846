import { describe, expect, it } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import type { ToolValue } from '../spec/tool-value.ts';
import { createMapTools } from './map-tools.ts';

const host = hostFor([createMapTools()]);

const cases: [string, ToolValue[], ToolValue][] = [
  ['map.Keys', [{ b: 1, a: 2 }], ['a', 'b']],
  ['map.Values', [{ b: 1, a: 2 }], [2, 1]],
  // Keys whose UTF-8 bytes tie (a lone surrogate is written as U+FFFD) come in UTF-16 order, not insertion order.
  ['map.Keys', [{ '\uFFFD': 1, '\uD800': 2 }], ['\uD800', '\uFFFD']],
  ['map.Values', [{ '\uFFFD': 1, '\uD800': 2 }], [2, 1]],
  ['map.Values', [{ '\uD800': 2, '\uFFFD': 1 }], [2, 1]],
  ['map.Size', [{ b: 1, a: 2 }], 2],
  ['map.Has', [{ a: null }, 'a'], true],
  ['map.Has', [{ a: 1 }, 'b'], false],
  ['map.Get', [{ a: 1 }, 'a'], 1],
  ['map.Get', [{ a: 1 }, 'b', 'none'], 'none'],
  ['map.Set', [{ a: 1 }, 'b', 2], { a: 1, b: 2 }],
  ['map.Delete', [{ a: 1, b: 2 }, 'a'], { b: 2 }],
  ['map.Merge', [{ a: 1, b: 1 }, { b: 2 }], { a: 1, b: 2 }],
  ['map.Get', [{ map: { a: 1 }, key: 'a' }], 1],
];

const failures: [string, ToolValue[], string, number][] = [
  ['map.Keys', [[1]], 'TOOL_ARGUMENT_INVALID', 4],
  ['map.Get', [{ a: 1 }], 'TOOL_ARGUMENT_MISSING', 4],
  ['map.Merge', [{ a: 1 }, 'b'], 'TOOL_ARGUMENT_INVALID', 4],
];

describe('tool.map.*', () => {
  it.each(cases)('%s(%j) → %j', async (name, args, expected) => {
    expect(await host.call(`tool.${name}`, args)).toEqual(expected);
  });

  it.each(failures)('%s(%j) fails with %s', async (name, args, code, referenceCode) => {
    const error = await host.fail(`tool.${name}`, args);
    expect([error.code, error.referenceCode]).toEqual([code, referenceCode]);
  });
});
