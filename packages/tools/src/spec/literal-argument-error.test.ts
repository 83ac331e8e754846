/** What the check says of literal arguments that cannot bind: a nil given, or a key a map of named arguments leaves out. */
import { describe, expect, it } from 'vitest';
import { defineTool } from './define-tool.ts';
import { literalArgumentError } from './literal-argument-error.ts';

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
