/**
 * A tool returning millions of items fails at the first limit it crosses,
 * naming that limit, its value and the tool. Regression: a map of 5 million
 * keys was copied whole, then measured (36 s of blocked host here), and
 * failed naming `maxResultLength`, the character limit, although the limit
 * crossed first is `maxResultItems`.
 */
import { describe, expect, it } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import { defineToolPack } from '../registry/tool-pack.ts';
import { defineTool } from '../spec/define-tool.ts';
import type { ToolValue } from '../spec/tool-value.ts';

const MILLIONS = 2_000_000;

function hugeMap(keys: number): Record<string, number> {
  const map: Record<string, number> = {};
  for (let index = 0; index < keys; index += 1) map[`k${index}`] = index;
  return map;
}

function nested(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < levels; level += 1) value = { inner: value };
  return value;
}

const pack = defineToolPack('huge', [
  defineTool({ name: 'tool.huge.Map', description: 'A map of n keys.', args: [{ name: 'n', type: 'int' }], returns: 'map' }, (args) => hugeMap(args.n as number)),
  defineTool({ name: 'tool.huge.List', description: 'A list of n numbers.', args: [{ name: 'n', type: 'int' }], returns: 'list' }, (args) => Array.from({ length: args.n as number }, (_, index) => index)),
  defineTool({ name: 'tool.huge.Rows', description: 'A list holding one map of n keys.', args: [{ name: 'n', type: 'int' }], returns: 'list' }, (args) => [{ ok: true }, hugeMap(args.n as number)]),
  defineTool({ name: 'tool.huge.Deep', description: 'Maps nested n levels deep.', args: [{ name: 'n', type: 'int' }], returns: 'map' }, (args) => nested(args.n as number) as ToolValue),
]);
const host = hostFor([pack]);

describe('results of millions of items (default limits: 100,000 items, 1 MiB of text)', () => {
  it(`a map of ${MILLIONS} keys is refused for its item count, naming maxResultItems, its value and the tool`, async () => {
    const error = await host.fail('tool.huge.Map', [MILLIONS]);
    expect(error.code).toBe('TOOL_RESULT_TOO_LARGE');
    expect(error.tool).toBe('tool.huge.Map');
    expect(error.message).toMatch(/^tool\.huge\.Map would return a map of 2000000 items at \$; the run's limit is 100000 items per list or map \(maxResultItems/);
    expect(error.message).not.toContain('characters');
  }, 60_000);

  it('a map over the limit inside a list is named by where it is', async () => {
    const error = await host.fail('tool.huge.Rows', [150_000]);
    expect(error.message).toContain(`would return a map of 150000 items at $[1]; the run's limit is 100000 items per list or map (maxResultItems`);
  }, 60_000);

  it(`a list of ${MILLIONS} numbers is refused for its item count`, async () => {
    const error = await host.fail('tool.huge.List', [MILLIONS]);
    expect(error.code).toBe('TOOL_RESULT_TOO_LARGE');
    expect(error.message).toMatch(/^tool\.huge\.List would return a list of 2000000 items at \$; the run's limit is 100000 items per list or map \(maxResultItems/);
  }, 60_000);

  it('a map over both limits (200,000 keys, 1.3 million characters of them) is named for its item count, checked first', async () => {
    const error = await host.fail('tool.huge.Map', [200_000]);
    expect(error.message).toContain('a map of 200000 items at $');
  });

  it('values nested a million levels deep are refused at level 100', async () => {
    const error = await host.fail('tool.huge.Deep', [1_000_000]);
    expect(error.code).toBe('TOOL_RESULT_TOO_LARGE');
    expect(error.message).toContain('nested more than 100 levels deep');
  });

  it('a result just within both limits comes back whole', async () => {
    expect(Object.keys((await host.call('tool.huge.Map', [100_000])) as object)).toHaveLength(100_000);
  });
});
