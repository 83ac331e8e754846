import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolError } from '../errors/tool-error.ts';
import { toBoundedToolValue } from './bounded-result.ts';
import { toToolValue, type ToolValue } from './tool-value.ts';

/** The characters of all strings and map keys of `value`, counted the plain way. */
function textOf(value: ToolValue): number {
  if (typeof value === 'string') return value.length;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + textOf(item), 0);
  if (value !== null && typeof value === 'object') return Object.entries(value).reduce((sum, [key, item]) => sum + key.length + textOf(item), 0);
  return 0;
}

/** The item count of the largest list or map of `value`. */
function largestOf(value: ToolValue): number {
  if (Array.isArray(value)) return Math.max(value.length, ...value.map(largestOf));
  if (value !== null && typeof value === 'object') return Math.max(Object.keys(value).length, ...Object.values(value).map(largestOf));
  return 0;
}

function refusal(value: unknown, maxItems: number, maxLength: number): ToolError {
  try {
    toBoundedToolValue(value, { tool: 'tool.x.Y', maxItems, maxLength });
  } catch (error) {
    expect(error).toBeInstanceOf(ToolError);
    return error as ToolError;
  }
  throw new Error('expected a refusal');
}

describe('toBoundedToolValue', () => {
  it('copies exactly what toToolValue copies when the value is within its limits', () => {
    fc.assert(
      fc.property(fc.jsonValue() as fc.Arbitrary<ToolValue>, (value) => {
        expect(toBoundedToolValue(value, { tool: 'tool.x.Y', maxItems: largestOf(value), maxLength: textOf(value) })).toEqual(toToolValue(value));
      }),
    );
  });

  it('refuses one character or one item over the limit, whichever is crossed', () => {
    fc.assert(
      fc.property(fc.jsonValue() as fc.Arbitrary<ToolValue>, (value) => {
        const text = textOf(value);
        const largest = largestOf(value);
        if (text > 0) expect(refusal(value, Infinity, text - 1).message).toContain(`the run's limit is ${text - 1} (maxResultLength`);
        if (largest > 0) expect(refusal(value, largest - 1, Infinity).message).toContain(`the run's limit is ${largest - 1} items per list or map (maxResultItems`);
      }),
    );
  });

  it('names the tool, the kind of collection, its size, where it is and the item limit', () => {
    const error = refusal({ rows: [1, 2, 3, 4] }, 3, 1000);
    expect(error.code).toBe('TOOL_RESULT_TOO_LARGE');
    expect(error.tool).toBe('tool.x.Y');
    expect(error.message).toBe(
      "tool.x.Y would return a list of 4 items at $.rows; the run's limit is 3 items per list or map (maxResultItems, the interpreter's collectionSize) — call it on smaller values",
    );
    expect(refusal({ a: 1, b: 2 }, 1, 1000).message).toMatch(/^tool\.x\.Y would return a map of 2 items at \$;/);
  });

  it('names the character limit and where it was crossed', () => {
    const error = refusal(['ab', 'cd', 'ef'], 10, 3);
    expect(error.code).toBe('TOOL_RESULT_TOO_LARGE');
    expect(error.message).toBe(
      "tool.x.Y would return at least 4 characters (strings and map keys; the limit is crossed at $[1]); the run's limit is 3 (maxResultLength, the interpreter's stringLength) — call it on smaller values",
    );
  });

  it('stops at the first list over the limit without visiting its items', () => {
    let visited = 0;
    const watched = new Proxy([] as unknown[], { get: (target, key) => (key === 'length' ? 5 : (visited += 1, Reflect.get(target, key))) });
    // A list claiming 5 items that counts every read of one: the limit must be checked from the length alone.
    expect(refusal(watched, 4, Infinity).message).toContain('a list of 5 items at $');
    expect(visited).toBe(0);
  });

  it('keeps the checks of toToolValue: cycles, class instances and depth', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(refusal(cycle, 10, 100).code).toBe('TOOL_RESULT_INVALID');
    expect(refusal([new Date(0)], 10, 100).code).toBe('TOOL_RESULT_INVALID');
    let deep: unknown = 1;
    for (let level = 0; level < 101; level += 1) deep = [deep];
    expect(refusal(deep, 10, 100).message).toContain('nested more than 100 levels deep');
  });
});
