import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ToolError } from '../errors/tool-error.ts';
import { ensureResultLength, jsonStringLength, jsonTextLength } from './result-size.ts';
import type { ToolValue } from './tool-value.ts';

const values = fc.jsonValue() as fc.Arbitrary<ToolValue>;

describe('result sizes computed without building the result', () => {
  it('jsonStringLength equals the length JSON.stringify writes, lone surrogates and control characters included', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(jsonStringLength(text)).toBe(JSON.stringify(text).length);
      }));
    expect(jsonStringLength('a"\\\n\u0001\ud800')).toBe(JSON.stringify('a"\\\n\u0001\ud800').length);
  });

  it('jsonTextLength equals the length of the compact and the indented JSON text with a prefix', () => {
    fc.assert(
      fc.property(values, fc.constantFrom(undefined, ' ', '  ', '\t'), fc.constantFrom('', '>', '// '), (value, indent, prefix) => {
        const text = JSON.stringify(value, null, indent);
        const expected = indent === undefined ? text : text.replaceAll('\n', `\n${prefix}`);
        expect(jsonTextLength(value, indent, indent === undefined ? '' : prefix)).toBe(expected.length);
      }),
    );
  });

  it('stops counting past the budget', () => {
    const big = Array.from({ length: 10_000 }, () => 'x'.repeat(100));
    expect(jsonTextLength(big, undefined, '', 1000)).toBeGreaterThan(1000);
    expect(jsonTextLength(big, undefined, '', 1000)).toBeLessThan(2000);
  });

  it('ensureResultLength names the tool, the size and the limit', () => {
    expect(() => ensureResultLength('tool.x.Y', 10, 10)).not.toThrow();
    let caught: unknown;
    try {
      ensureResultLength('tool.x.Y', 11, 10);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ToolError);
    expect((caught as ToolError).code).toBe('TOOL_RESULT_TOO_LARGE');
    expect((caught as ToolError).message).toMatch(/tool\.x\.Y would return 11 characters; the run's limit is 10/);
  });
});
