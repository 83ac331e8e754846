import { describe, expect, it } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import type { ToolValue } from '../spec/tool-value.ts';
import { createJsonTools } from './json-tools.ts';

const host = hostFor([createJsonTools()]);

const cases: [string, ToolValue[], ToolValue][] = [
  ['json.Parse', ['[1,{"a":"b"}]'], [1, { a: 'b' }]],
  ['json.Stringify', [{ b: [1], a: null }], '{"a":null,"b":[1]}'],
  ['json.Stringify', [{ a: 1 }, true], '{\n  "a": 1\n}'],
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
