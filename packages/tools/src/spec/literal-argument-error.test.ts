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
    expect(error?.message).toMatch(/^tool\.str\.Replace argument 'input_string' expects a string \(numbers are not converted\), got map /);
    expect(error?.message).toContain(`; read as named arguments, the map's key "cuont" (did you mean 'count'?) names no argument of ${signature}`);
    expect(() => bindArguments(replace.spec, [map])).toThrow(error?.message);
  });

  it('adds nothing for a map given among other arguments', () => {
    expect(literalArgumentError(replace.spec, [{ input_strin: 'x' }, '5', '6', 1])?.message).toBe(
      `tool.str.Replace argument 'input_string' expects a string (numbers are not converted), got map {"input_strin":"x"}`,
    );
  });
});
