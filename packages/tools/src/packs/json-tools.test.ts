import { describe, expect, it } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import type { ToolValue } from '../spec/tool-value.ts';
import { createJsonTools } from './json-tools.ts';
import { createStringTools } from './string-tools.ts';

const host = hostFor([createJsonTools()]);

const cases: [string, ToolValue[], ToolValue][] = [
  ['json.Parse', ['[1,{"a":"b"}]'], [1, { a: 'b' }]],
  ['json.Stringify', [{ b: [1], a: null }], '{"a":null,"b":[1]}'],
  ['json.Stringify', [{ a: 1 }, true], '{\n  "a": 1\n}'],
  ['json.Stringify', [{ '\uFFFD': 1, '\uD800': 2 }], '{"\\ud800":2,"\uFFFD":1}'],
  ['json.Stringify', [{ '\uFFFD': 1, '\uD800': 2 }, true], '{\n  "\\ud800": 2,\n  "\uFFFD": 1\n}'],
  ['json.Stringify', ['x'], '"x"'],
];

const failures: [string, ToolValue[], string, number][] = [
  ['json.Parse', ['nope'], 'TOOL_VALUE_INVALID', 41],
  ['json.Parse', [1], 'TOOL_ARGUMENT_INVALID', 4],
];

describe('tool.json.*', () => {
  it.each(cases)('%s(%j) → %j', async (name, args, expected) => {
    expect(await host.call(`tool.${name}`, args)).toEqual(expected);
  });

  it.each(failures)('%s(%j) fails with %s', async (name, args, code, referenceCode) => {
    const error = await host.fail(`tool.${name}`, args);
    expect([error.code, error.referenceCode]).toEqual([code, referenceCode]);
  });
});

describe('numbers beyond the double range (review: 1e400 was TOOL_RESULT_INVALID, meant for tool bugs)', () => {
  it.each(['1e400', '[1, {"a": -1e400}]', `[${'9'.repeat(400)}]`])('json.Parse(%j) is TOOL_VALUE_INVALID naming text', async (text) => {
    const error = await host.fail('tool.json.Parse', [text]);
    expect([error.code, error.argument, error.message]).toEqual([
      'TOOL_VALUE_INVALID',
      'text',
      'tool.json.Parse: text holds a number out of range: JSON numbers must lie between about -1.8e308 and 1.8e308 (a double); write larger values as strings (pack json)',
    ]);
  });

  it('str.ParseJsonString names its own argument; in-range numbers and deep nesting still parse', async () => {
    const strings = hostFor([createStringTools()]);
    expect((await strings.fail('tool.str.ParseJsonString', ['1e400'])).argument).toBe('json_string');
    expect(await host.call('tool.json.Parse', ['[1.7e308, -5e-324, "1e400"]'])).toEqual([1.7e308, -5e-324, '1e400']);
    expect((await host.call('tool.json.Parse', [`${'['.repeat(90)}1${']'.repeat(90)}`])) as unknown).toBeInstanceOf(Array);
  });
});
