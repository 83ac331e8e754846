/**
 * Every built-in tool whose result can outgrow its arguments refuses, before
 * building it, a result over the run's limit (`maxResultLength`); every other
 * oversized result is caught by the host's check. Regression: a 1 MB Replace
 * with a 512-character replacement drove the CLI to 3–5 GB.
 */
import { describe, expect, it } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import { defineToolPack } from '../registry/tool-pack.ts';
import { defineTool } from '../spec/define-tool.ts';
import type { ToolValue } from '../spec/tool-value.ts';
import { createSafeToolPacks } from './default-registry.ts';

const LIMIT = 1000;
const big = defineToolPack('big', [defineTool({ name: 'tool.big.Make', description: 'A long string.', args: [{ name: 'n', type: 'int' }], returns: 'string' }, (args) => 'z'.repeat(args.n as number))]);
const host = hostFor([...createSafeToolPacks(), big], undefined, { maxResultLength: LIMIT });

const tooLarge: [string, ToolValue[]][] = [
  ['tool.str.Replace', ['a'.repeat(600), 'a', 'bb', -1]],
  ['tool.str.Replace', ['x'.repeat(500), '', 'yy', -1]],
  ['tool.str.Join', [['a'.repeat(400), 'b'.repeat(400), 'c'.repeat(400)], ',']],
  ['tool.str.Join', [['a', 'b', 'c'], 'x'.repeat(600)]],
  ['tool.str.Concat', [['a'.repeat(400), 'b'.repeat(400), ['c'.repeat(400)]]]],
  ['tool.str.ToBase64', ['a'.repeat(800)]],
  ['tool.str.ToHex', ['a'.repeat(600)]],
  ['tool.str.ToJsonString', [Array.from({ length: 50 }, (_, index) => index), true, 'p'.repeat(50)]],
  ['tool.str.ToJsonString', [Array.from({ length: 50 }, (_, index) => index), true, '', ' '.repeat(30)]],
  ['tool.json.Stringify', [Array.from({ length: 300 }, () => 'ab')]],
  ['tool.json.Stringify', [Array.from({ length: 100 }, () => [[[1]]]), true]],
  ['tool.list.Append', [['x'.repeat(600)], 'y'.repeat(600)]],
  ['tool.list.Prepend', [['x'.repeat(600)], 'y'.repeat(600)]],
  ['tool.map.Merge', [{ a: 'x'.repeat(600) }, { b: 'y'.repeat(600) }]],
  ['tool.map.Set', [{ a: 'x'.repeat(600) }, 'b', 'y'.repeat(600)]],
  ['tool.big.Make', [LIMIT + 1]],
];

describe('results over the run limit (maxResultLength)', () => {
  it.each(tooLarge)('%s refuses with TOOL_RESULT_TOO_LARGE', async (name, args) => {
    const error = await host.fail(name, args);
    expect(error.code).toBe('TOOL_RESULT_TOO_LARGE');
    // Exact when the tool counts before building; "at least" when the host's copy stopped at the limit.
    expect(error.message).toMatch(new RegExp(`^${name.replaceAll('.', '\\.')}.* would return (at least )?\\d+ characters.*; the run's limit is ${LIMIT}`));
  });

  it('lets results up to the limit through', async () => {
    expect(await host.call('tool.str.Replace', ['a'.repeat(600), 'a', 'bb', 400])).toHaveLength(1000);
    expect(await host.call('tool.str.Join', [['a'.repeat(499), 'b'.repeat(500)], ','])).toHaveLength(1000);
    expect(await host.call('tool.big.Make', [LIMIT])).toHaveLength(LIMIT);
  });

  it('defaults to the interpreter default (1 MiB) and refuses the 1 MB Replace with a 512-character replacement', async () => {
    const plain = hostFor(createSafeToolPacks());
    const error = await plain.fail('tool.str.Replace', ['a'.repeat(1024 * 1024), 'a', 'r'.repeat(512), -1]);
    expect(error.code).toBe('TOOL_RESULT_TOO_LARGE');
    expect(error.message).toContain(`would return ${1024 * 1024 * 512} characters; the run's limit is ${1024 * 1024}`);
  });
});

describe('results with very many items', () => {
  it('checks a list of 512 Ki items without overflowing the stack (Split of a 512 Ki-character string with "")', async () => {
    // Regression: the host's size check spread the list into push() and failed with "Maximum call stack size exceeded".
    const roomy = hostFor(createSafeToolPacks(), undefined, { maxResultItems: 1024 * 1024 });
    const parts = (await roomy.call('tool.str.Split', ['a'.repeat(512 * 1024), ''])) as string[];
    expect(parts).toHaveLength(512 * 1024);
    const words = (await roomy.call('tool.str.SplitWords', ['a '.repeat(300_000)])) as string[];
    expect(words).toHaveLength(300_000);
  });

  it.each<[string, ToolValue[], number]>([
    ['tool.str.Split', ['a'.repeat(1024 * 1024), ''], 1024 * 1024],
    ['tool.str.Split', ['a,'.repeat(150_000), ','], 150_001],
    ['tool.str.SplitWords', ['a '.repeat(150_000)], 150_000],
    ['tool.json.Parse', [`[${'1,'.repeat(150_000)}1]`], 150_001],
  ])("%s refuses a list over the run's collectionSize (default 100,000) with TOOL_RESULT_TOO_LARGE", async (name, args, count) => {
    const error = await hostFor(createSafeToolPacks()).fail(name, args);
    expect(error.code).toBe('TOOL_RESULT_TOO_LARGE');
    // The tools that count say "a list or map"; the host's check of a built result says which, and where.
    expect(error.message).toMatch(new RegExp(`would return a list( or map)? of ${count} items( at \\$)?; the run's limit is 100000 items per list or map`));
  });

  it('lets lists up to maxResultItems through', async () => {
    const host = hostFor(createSafeToolPacks(), undefined, { maxResultItems: 3 });
    expect(await host.call('tool.str.Split', ['a,b,c', ','])).toEqual(['a', 'b', 'c']);
    expect((await host.fail('tool.str.Split', ['a,b,c,d', ','])).code).toBe('TOOL_RESULT_TOO_LARGE');
    expect((await host.fail('tool.json.Parse', ['{"a":1,"b":2,"c":3,"d":4}'])).code).toBe('TOOL_RESULT_TOO_LARGE');
  });

  it.each([
    ['tool.json.Parse', `${'['.repeat(5000)}${']'.repeat(5000)}`],
    ['tool.str.ParseJsonString', `${'{"a": '.repeat(5000)}1${'}'.repeat(5000)}`],
  ])('%s of 5,000 nested levels is TOOL_RESULT_TOO_LARGE (it overflowed the stack: TOOL_FAILED)', async (name, text) => {
    const error = await hostFor(createSafeToolPacks()).fail(name, [text]);
    expect(error.code).toBe('TOOL_RESULT_TOO_LARGE');
    expect(error.message).toContain('nested more than 100 levels deep');
  });
});
