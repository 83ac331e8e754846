/**
 * One rendering of a number everywhere: `tool.str.Join` and `tool.str.Concat`
 * (in `@askloop/tools`, which may not load the interpreter) write a number as
 * the interpreter's `"n=" + x` does (its `formatNumber`). This package may load
 * both, so the two are compared here, over every finite double (what a tool
 * argument may hold).
 */
import { formatNumber } from '@askloop/interpreter';
import { createDefaultRegistry, createPolicy, createToolHost } from '@askloop/tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const host = createToolHost({ registry: createDefaultRegistry(), policy: createPolicy({ allow: ['tool.str.*'] }), session: 'numbers', turn: 1 });

describe('numbers in tool.str.Join and tool.str.Concat', () => {
  it("read as the interpreter's rendering of the same number", async () => {
    await fc.assert(
      fc.asyncProperty(fc.double({ noNaN: true, noDefaultInfinity: true }), async (value) => {
        expect(await host.call('tool.str.Join', [[value, value], ','])).toBe(`${formatNumber(value)},${formatNumber(value)}`);
        expect(await host.call('tool.str.Concat', [[value]])).toBe(formatNumber(value));
      }),
      { numRuns: 2000 },
    );
  });
});
