import { describe, expect, it } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import type { ToolValue } from '../spec/tool-value.ts';
import { createStringTools, numberText } from './string-tools.ts';

const host = hostFor([createStringTools()]);

const cases: [string, ToolValue[], ToolValue][] = [
  ['Length', ['héllo 😀'], 7],
  ['Length', [''], 0],
  ['Substring', ['héllo', 1, 3], 'éll'],
  ['Substring', ['abc', '1', '10'], 'bc'],
  ['Substring', ['abc', 3, 1], ''],
  // Regression: a start past the end clamps to "" (Go), it used to fail.
  ['Substring', ['abcdef', 10, 1], ''],
  ['ToUpper', ['abc'], 'ABC'],
  ['ToLower', ['ÀBC'], 'àbc'],
  // As Go maps case, a character at a time: no ß → SS, no final sigma.
  ['ToUpper', ['straße'], 'STRAßE'],
  ['ToLower', ['ΣΑΣ'], 'σασ'],
  ['TrimSpace', ['  a b \n'], 'a b'],
  ['TrimPrefix', ['prefix-x', 'prefix-'], 'x'],
  ['TrimPrefix', ['x', 'y'], 'x'],
  ['TrimSuffix', ['file.txt', '.txt'], 'file'],
  ['TrimSuffix', ['file', ''], 'file'],
  ['Split', ['a,b,,c', ','], ['a', 'b', '', 'c']],
  ['Split', ['ab😀', ''], ['a', 'b', '😀']],
  ['SplitWords', ['  a  b\tc\n'], ['a', 'b', 'c']],
  ['SplitWords', ['   '], []],
  ['Join', [['a', 'b'], '-'], 'a-b'],
  ['Concat', [['a', 'b', 'c']], 'abc'],
  // Regression: non-string items are converted as Go does, they used to fail.
  ['Join', [['a', 1, true], ','], 'a,1,true'],
  ['Join', [['a', null, 2.5, [1, { b: 1, a: 2 }]], '|'], 'a||2.5|[1,{"a":2,"b":1}]'],
  ['Concat', [['a', 1, false]], 'a1false'],
  // Numbers as the interpreter renders them ("n=" + 1e21 is n=1000000000000000000000): never an exponent.
  ['Join', [[1e21, 1e-7, -2.5e-8, 1.5e22], ','], '1000000000000000000000,0.0000001,-0.000000025,15000000000000000000000'],
  ['Concat', [[1e21]], '1000000000000000000000'],
  ['Replace', ['a.b.c', '.', '/', -1], 'a/b/c'],
  ['Replace', ['a.b.c', '.', '/', 1], 'a/b.c'],
  ['Replace', ['a.b.c', '.', '/', 0], 'a.b.c'],
  ['Replace', ['abc', '', '-', -1], '-a-b-c-'],
  ['Replace', ['abc', '', '-', 2], '-a-bc'],
  ['Replace', ['', '', '-', -1], '-'],
  ['Contains', ['haystack', 'st'], true],
  ['Contains', ['haystack', 'x'], false],
  ['HasPrefix', ['haystack', 'hay'], true],
  ['HasSuffix', ['haystack', 'hay'], false],
  ['LineCount', ['a\nb\nc'], 3],
  ['LineCount', ['a\nb\n'], 2],
  ['LineCount', [''], 0],
  ['ToBase64', ['héllo'], 'aMOpbGxv'],
  ['FromBase64', ['aMOpbGxv'], 'héllo'],
  ['ToHex', ['hi'], '6869'],
  ['FromHex', ['6869'], 'hi'],
  ['ParseJsonString', ['{"a":[1,true,null]}'], { a: [1, true, null] }],
  ['ToJsonString', [{ b: 1, a: 2 }], '{"a":2,"b":1}'],
  ['ToJsonString', [{ a: [1] }, true], '{\n  "a": [\n    1\n  ]\n}'],
  ['ToJsonString', [{ a: 1 }, 'true', '> ', '\t'], '{\n> \t"a": 1\n> }'],
  ['ToJsonString', [{ value: { a: 1 }, pretty_print: false }], '{"a":1}'],
];

const failures: [string, ToolValue[], string, string][] = [
  ['Length', [42], 'TOOL_ARGUMENT_INVALID', "tool.str.Length argument 'input_string' expects a string (numbers are not converted), got number 42"],
  ['Length', [], 'TOOL_ARGUMENT_MISSING', "tool.str.Length needs argument 'input_string' (string); its arguments, in order: tool.str.Length(input_string: string)"],
  ['Substring', ['abc', -1, 1], 'TOOL_VALUE_BOUNDS', 'tool.str.Substring: start_index -1 and length 1 must not be negative (pack str)'],
  ['Substring', ['abc', 1.5, 1], 'TOOL_ARGUMENT_INVALID', "tool.str.Substring argument 'start_index' expects an integer (or a string holding one), got number 1.5"],
  ['Concat', ['abc'], 'TOOL_ARGUMENT_INVALID', "tool.str.Concat: argument 'strings_list' expects a list (pack str)"],
  ['FromBase64', ['***'], 'TOOL_VALUE_INVALID', 'tool.str.FromBase64: encoded_string is not valid standard base64 (pack str)'],
  ['FromHex', ['abc'], 'TOOL_VALUE_INVALID', 'tool.str.FromHex: encoded_string is not valid hex (pairs of 0-9, a-f) (pack str)'],
  // Bytes that are not UTF-8 were decoded to U+FFFD without a word.
  ['FromHex', ['ff'], 'TOOL_VALUE_INVALID', 'tool.str.FromHex: encoded_string is valid hex, but its bytes are not UTF-8 text (binary data, or another encoding); these tools decode text only (pack str)'],
  ['FromBase64', ['/w=='], 'TOOL_VALUE_INVALID', 'tool.str.FromBase64: encoded_string is valid base64, but its bytes are not UTF-8 text (binary data, or another encoding); these tools decode text only (pack str)'],
  ['ParseJsonString', ['{'], 'TOOL_VALUE_INVALID', "tool.str.ParseJsonString: json_string is not valid JSON: Expected property name or '}' in JSON at position 1 (line 1 column 2) (pack str)"],
  ['Replace', ['a', 'a', 'b'], 'TOOL_ARGUMENT_MISSING', "tool.str.Replace needs argument 'count' (int); its arguments, in order: tool.str.Replace(input_string: string, old_substring: string, new_substring: string, count: int)"],
  ['ToUpper', ['a', 'b'], 'TOOL_ARGUMENT_INVALID', 'tool.str.ToUpper takes at most 1 argument (input_string: string), got 2'],
];

describe('tool.str.*', () => {
  it.each(cases)('%s(%j) → %j', async (name, args, expected) => {
    expect(await host.call(`tool.str.${name}`, args)).toEqual(expected);
  });

  it.each(failures)('%s(%j) fails with %s', async (name, args, code, message) => {
    const error = await host.fail(`tool.str.${name}`, args);
    expect([error.code, error.message]).toEqual([code, message]);
  });
});

describe('numberText', () => {
  // The interpreter's own rendering ("n=" + x); a property test against its formatNumber is in the CLI's tests
  // (apps/demo/test/number-rendering.test.ts): this package may not load the interpreter.
  it.each([
    [0, '0'],
    [-0, '0'],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, '+Inf'],
    [Number.NEGATIVE_INFINITY, '-Inf'],
    [1e21, '1000000000000000000000'],
    [-1e21, '-1000000000000000000000'],
    [1e-7, '0.0000001'],
    [0.1 + 0.2, '0.30000000000000004'],
    [5e-324, `0.${'0'.repeat(323)}5`],
  ])('renders %s as %s, as the interpreter does', (value, text) => {
    expect(numberText(value)).toBe(text);
  });
});
