/** What the check says of literal arguments that cannot bind: a nil given, or a key a map of named arguments leaves out. */
import { describe, expect, it } from 'vitest';
import { defineTool } from './define-tool.ts';
import { literalArgumentError } from './literal-argument-error.ts';
import { bindArguments } from './bind-arguments.ts';

const replace = defineTool(
  {
    name: 'tool.str.Replace',
    description: 'Replaces text.',
    args: [
      { name: 'input_string', type: 'string' },
      { name: 'old_substring', type: 'string' },
      { name: 'new_substring', type: 'string' },
      { name: 'count', type: 'int' },
    ],
    returns: 'string',
  },
  () => null,
);
const signature = 'tool.str.Replace(input_string: string, old_substring: string, new_substring: string, count: int)';

describe('literalArgumentError', () => {
  it('says a map of named arguments has no key for a required argument, and how to add it', () => {
    expect(literalArgumentError(replace.spec, [{ input_string: '2025', old_substring: '5', new_substring: '6' }])).toMatchObject({
      code: 'TOOL_ARGUMENT_MISSING',
      message: `tool.str.Replace needs argument 'count' (int) but the map of named arguments has no "count"; add "count": … to it; its arguments, in order: ${signature}`,
    });
  });

  it('says of a map whose keys name no argument how arguments are passed, and nothing about numbers', () => {
    const upper = defineTool({ name: 'tool.str.ToUpper', description: 'Upper case.', args: [{ name: 'input_string', type: 'string' }], returns: 'string' }, () => null);
    expect(literalArgumentError(upper.spec, [{ text: 'x' }])).toMatchObject({
      code: 'TOOL_ARGUMENT_INVALID',
      message:
        'tool.str.ToUpper argument \'input_string\' expects a string, got map {"text":"x"}; read as named arguments, the map\'s key "text" names no argument of tool.str.ToUpper(input_string: string). ' +
        'Pass the arguments in order, tool.str.ToUpper(…), or as one map keyed by their names: tool.str.ToUpper({"input_string": …})',
    });
    // A number keeps its own word; a map given as the second argument gets no named-argument hint.
    expect(literalArgumentError(upper.spec, [5])?.message).toBe("tool.str.ToUpper argument 'input_string' expects a string (numbers are not converted), got number 5");
    expect(literalArgumentError(replace.spec, ['a', { text: 'x' }, 'b', 1])?.message).toBe("tool.str.Replace argument 'old_substring' expects a string, got map {\"text\":\"x\"}");
  });

  it('says an argument given as nil is given nil', () => {
    expect(literalArgumentError(replace.spec, ['2025', '5', '6', null])).toMatchObject({
      code: 'TOOL_ARGUMENT_MISSING',
      message: `tool.str.Replace needs argument 'count' (int) but is given nil; its arguments, in order: ${signature}`,
    });
  });
});

describe('literalArgumentError of a lone map the first argument cannot take', () => {
  it('names the keys that name no argument, with the one meant, as the run does', () => {
    // Before, the check (which refuses a literal map before the run) said only "expects a string, got map …".
    const map = { input_string: '2025', old_substring: '5', new_substring: '6', cuont: -1 };
    const error = literalArgumentError(replace.spec, [map]);
    expect(error).toMatchObject({ code: 'TOOL_ARGUMENT_INVALID', argument: 'input_string' });
    expect(error?.message).toMatch(/^tool\.str\.Replace argument 'input_string' expects a string, got map /);
    expect(error?.message).toContain(`; read as named arguments, the map's key "cuont" (did you mean 'count'?) names no argument of ${signature}`);
    expect(() => bindArguments(replace.spec, [map])).toThrow(error?.message);
  });

  it('adds nothing for a map given among other arguments', () => {
    expect(literalArgumentError(replace.spec, [{ input_strin: 'x' }, '5', '6', 1])?.message).toBe(
      `tool.str.Replace argument 'input_string' expects a string, got map {"input_strin":"x"}`,
    );
  });
});
