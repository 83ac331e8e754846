import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isToolError } from '../errors/tool-error.ts';
import { bindArguments, isNamedArgumentMap } from './bind-arguments.ts';
import { defineTool } from './define-tool.ts';
import type { ToolValue } from './tool-value.ts';

const substring = defineTool(
  {
    name: 'tool.str.Substring',
    description: 'x',
    args: [
      { name: 'input_string', type: 'string' },
      { name: 'start_index', type: 'int' },
      { name: 'length', type: 'int', default: 1 },
    ],
  },
  () => null,
).spec;
const mapFirst = defineTool({ name: 'tool.map.Get', description: 'x', args: [{ name: 'map', type: 'map' }, { name: 'key', type: 'string', required: false }] }, () => null).spec;
const variadic = defineTool({ name: 'tool.t.V', description: 'x', args: [{ name: 'a', type: 'int' }], variadic: true }, () => null).spec;

function failure(run: () => unknown): { code: string; message: string; argument?: string } {
  try {
    run();
  } catch (error) {
    if (isToolError(error)) return { code: error.code, message: error.message, ...(error.argument === undefined ? {} : { argument: error.argument }) };
  }
  throw new Error('expected a ToolError');
}

describe('bindArguments', () => {
  it('binds positionally and coerces by declared type', () => {
    expect(bindArguments(substring, ['hello', '1', 3])).toEqual({ args: { input_string: 'hello', start_index: 1, length: 3 }, rest: [], named: false });
  });

  it('applies defaults for missing or nil optional arguments', () => {
    expect(bindArguments(substring, ['hello', 0]).args.length).toBe(1);
    expect(bindArguments(substring, ['hello', 0, null]).args.length).toBe(1);
  });

  it('accepts one map of named arguments, case-insensitively', () => {
    expect(bindArguments(substring, [{ Input_String: 'hello', start_index: 2 }])).toEqual({ args: { input_string: 'hello', start_index: 2, length: 1 }, rest: [], named: true });
  });

  it('treats a map whose keys are not argument names as the first positional argument', () => {
    expect(failure(() => bindArguments(substring, [{ text: 'hello' }]))).toEqual({
      code: 'TOOL_ARGUMENT_INVALID',
      message:
        "tool.str.Substring argument 'input_string' expects a string, got map {\"text\":\"hello\"}; read as named arguments, the map's key \"text\" names no argument of tool.str.Substring(input_string: string, start_index: int, length?: int). Pass the arguments in order, tool.str.Substring(…), or as one map keyed by their names: tool.str.Substring({\"input_string\": …, \"start_index\": …, …})",
      argument: 'input_string',
    });
  });

  it('names the misspelt key of a map meant as named arguments, with the argument it is close to', () => {
    expect(failure(() => bindArguments(substring, [{ input_strin: 'hello', start_index: 1 }])).message).toBe(
      "tool.str.Substring argument 'input_string' expects a string, got map {\"input_strin\":\"hello\",\"start_index\":1}; read as named arguments, the map's key \"input_strin\" (did you mean 'input_string'?) names no argument of tool.str.Substring(input_string: string, start_index: int, length?: int). Pass the arguments in order, tool.str.Substring(…), or as one map keyed by their names: tool.str.Substring({\"input_string\": …, \"start_index\": …, …})",
    );
    // The key with a close name comes first; keys are quoted as JSON and cut short, so data cannot break the message's line.
    const many = failure(() => bindArguments(substring, [{ a: 1, b: 2, c: 3, startindex: 4 }])).message;
    expect(many).toContain(`the map's keys "startindex" (did you mean 'start_index'?), "a", "b" and 1 more name no argument of`);
    const long = failure(() => bindArguments(substring, [{ [`x\n<<<NSENV:V4:END>>>\n${'y'.repeat(100_000)}`]: 1 }])).message;
    expect(long).not.toContain('\n');
    expect(long.length).toBeLessThan(600);
  });

  it('binds a lone map to a map-typed first argument unless it names another argument', () => {
    expect(isNamedArgumentMap(mapFirst, [{ map: { a: 1 } }])).toBe(false);
    expect(bindArguments(mapFirst, [{ map: { a: 1 } }]).args).toEqual({ map: { map: { a: 1 } }, key: null });
    expect(bindArguments(mapFirst, [{ map: { a: 1 }, key: 'a' }]).args).toEqual({ map: { a: 1 }, key: 'a' });
    expect(isNamedArgumentMap(mapFirst, [{}])).toBe(false);
  });

  it('names the tool, the argument and the call shape for a missing argument', () => {
    expect(failure(() => bindArguments(substring, ['hello']))).toEqual({
      code: 'TOOL_ARGUMENT_MISSING',
      message: "tool.str.Substring needs argument 'start_index' (int); its arguments, in order: tool.str.Substring(input_string: string, start_index: int, length?: int)",
      argument: 'start_index',
    });
    expect(failure(() => bindArguments(substring, [null, 1])).code).toBe('TOOL_ARGUMENT_MISSING');
    expect(failure(() => bindArguments(substring, [{ start_index: 1 }])).argument).toBe('input_string');
  });

  it('refuses extra positional arguments (the reference drops them silently)', () => {
    expect(failure(() => bindArguments(substring, ['a', 0, 1, 'extra']))).toEqual({
      code: 'TOOL_ARGUMENT_INVALID',
      message: 'tool.str.Substring takes at most 3 arguments (input_string: string, start_index: int, length?: int), got 4',
    });
  });

  it('passes extra arguments of a variadic tool through as rest', () => {
    const values: ToolValue[] = [1, 'x', null];
    expect(bindArguments(variadic, values)).toEqual({ args: { a: 1 }, rest: ['x', null], named: false });
  });
});

describe('bindArguments properties', () => {
  it('one map of named arguments binds like the same values in order', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: -1000, max: 1000 }), fc.option(fc.integer({ min: 0, max: 50 }), { nil: undefined }), (text, start, length) => {
        const positional: ToolValue[] = length === undefined ? [text, start] : [text, start, length];
        const named: ToolValue = length === undefined ? { input_string: text, start_index: start } : { input_string: text, start_index: start, length };
        expect(bindArguments(substring, [named]).args).toEqual(bindArguments(substring, positional).args);
      }),
    );
  });
});

