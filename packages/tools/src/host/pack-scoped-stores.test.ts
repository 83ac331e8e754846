/**
 * A plugin's state kept through `context.stores` is its own: stored under
 * `pack:<name>/`, out of reach of the built-in `tool.memory.*` and
 * `tool.scratch.*` (which refuse that prefix) and of every other pack.
 */
import { describe, expect, it } from 'vitest';
import { hostFor } from '../../test/tool-test-host.ts';
import { useTempStore } from '../../test/temp-store.ts';
import { createSafeToolPacks } from '../packs/default-registry.ts';
import { defineToolPack, type ToolPack } from '../registry/tool-pack.ts';
import { defineTool } from '../spec/define-tool.ts';
import type { ToolContext } from '../spec/tool-context.ts';
import type { ToolValue } from '../spec/tool-value.ts';
import type { ToolStores } from '../stores/store-types.ts';

const temp = useTempStore();

function memoryOf(context: ToolContext): ToolStores['memory'] {
  if (context.stores.memory === undefined) throw new Error('no memory store');
  return context.stores.memory;
}

function scratchOf(context: ToolContext): ToolStores['scratch'] {
  if (context.stores.scratch === undefined) throw new Error('no scratch store');
  return context.stores.scratch;
}

/** A plugin-style pack `name` keeping state through `context.stores`, as a plugin author writes one. */
function keyValuePack(name: string, seen: ToolContext['stores'][] = []): ToolPack {
  const key = { name: 'key', type: 'string', description: 'The key.' } as const;
  const value = { name: 'value', type: 'any', description: 'The value.' } as const;
  return defineToolPack(name, [
    defineTool({ name: `tool.${name}.Put`, description: 'Sets a key.', args: [key, value], returns: 'list', capabilities: [`${name}:write`], effect: 'write' }, async (args, context) => {
      seen.push(context.stores);
      const memory = memoryOf(context);
      const current = await memory.get(args.key as string);
      const outcome = await memory.cas(args.key as string, current.version, args.value as ToolValue);
      return [outcome.ok, outcome.version];
    }),
    defineTool({ name: `tool.${name}.Get`, description: 'Reads a key.', args: [key], returns: 'list', capabilities: [`${name}:read`] }, async (args, context) => {
      seen.push(context.stores);
      const found = await memoryOf(context).get(args.key as string);
      return [found.value, found.version];
    }),
    defineTool({ name: `tool.${name}.Note`, description: 'Sets a scratch key.', args: [key, value], returns: 'list', capabilities: [`${name}:write`], effect: 'write' }, async (args, context) => {
      const scratch = scratchOf(context);
      const current = await scratch.get(context.session, args.key as string);
      const outcome = await scratch.putCas(context.session, args.key as string, current.version, args.value as ToolValue, 60_000);
      return [outcome.ok, outcome.version];
    }),
    defineTool({ name: `tool.${name}.Recall`, description: 'Reads a scratch key.', args: [key], returns: 'list', capabilities: [`${name}:read`] }, async (args, context) => {
      const found = await scratchOf(context).get(context.session, args.key as string);
      return [found.value, found.version];
    }),
  ]);
}

describe("a pack's state kept through context.stores", () => {
  it('is not what tool.memory.Get reads, and the prefixed key is refused; the pack reads its own value and version', async () => {
    const host = hostFor([...createSafeToolPacks(), keyValuePack('kv')], { allow: ['**'], grants: ['kv:read,write', 'memory:read,write'] }, { stores: temp.stores });
    expect(await host.call('tool.kv.Put', ['greeting', 'hello'])).toEqual([true, 1]);
    expect(await host.call('tool.kv.Put', ['greeting', 'hello again'])).toEqual([true, 2]);
    expect(await host.call('tool.memory.Get', ['greeting'])).toEqual([null, 0]);
    const read = await host.fail('tool.memory.Get', ['pack:kv/greeting']);
    expect([read.code, read.message]).toEqual([
      'TOOL_ARGUMENT_INVALID',
      "tool.memory.Get: key starts with 'pack:', which is reserved for the state tool packs keep through their own tools; use a key that does not start with 'pack:' (pack memory)",
    ]);
    expect((await host.fail('tool.memory.CAS', ['pack:kv/greeting', 2, 'overwritten'])).code).toBe('TOOL_ARGUMENT_INVALID');
    // A key of the agent's own with the same name is its own, and leaves the pack's alone.
    expect(await host.call('tool.memory.CAS', ['greeting', 0, 'agent'])).toEqual([true, 1]);
    expect(await host.call('tool.kv.Get', ['greeting'])).toEqual(['hello again', 2]);
    expect(await temp.stores.memory.get('pack:kv/greeting')).toEqual({ value: 'hello again', version: 2 });
  });

  it('is not what tool.scratch.Get reads, and the prefixed key is refused; the pack reads its own value and version', async () => {
    const host = hostFor([...createSafeToolPacks(), keyValuePack('kv')], { allow: ['**'], grants: ['kv:read,write'] }, { stores: temp.stores });
    expect(await host.call('tool.kv.Note', ['cursor', 7])).toEqual([true, 1]);
    expect(await host.call('tool.scratch.Get', ['cursor'])).toEqual([null, 0]);
    const read = await host.fail('tool.scratch.Get', ['pack:kv/cursor']);
    expect([read.code, read.message]).toEqual([
      'TOOL_ARGUMENT_INVALID',
      "tool.scratch.Get: key starts with 'pack:', which is reserved for the state tool packs keep through their own tools; use a key that does not start with 'pack:' (pack scratch)",
    ]);
    expect((await host.fail('tool.scratch.PutCAS', ['pack:kv/cursor', 1, 'overwritten'])).code).toBe('TOOL_ARGUMENT_INVALID');
    expect(await host.call('tool.kv.Recall', ['cursor'])).toEqual([7, 1]);
  });

  it('is refused before the program runs when the key is a literal', () => {
    const host = hostFor([...createSafeToolPacks(), keyValuePack('kv')], { allow: ['**'], grants: ['memory:read'] }, { stores: temp.stores });
    expect(host.catalog.check('tool.memory.Get', ['pack:kv/greeting'])?.code).toBe('TOOL_ARGUMENT_INVALID');
    expect(host.catalog.check('tool.memory.Get', ['greeting'])).toBeUndefined();
  });

  it('of two packs with the same key, neither sees the other', async () => {
    const host = hostFor([keyValuePack('kv'), keyValuePack('kv2')], { allow: ['**'], grants: ['*:*'] }, { stores: temp.stores });
    expect(await host.call('tool.kv.Put', ['greeting', 'from kv'])).toEqual([true, 1]);
    expect(await host.call('tool.kv2.Get', ['greeting'])).toEqual([null, 0]);
    expect(await host.call('tool.kv2.Put', ['greeting', 'from kv2'])).toEqual([true, 1]);
    expect(await host.call('tool.kv.Get', ['greeting'])).toEqual(['from kv', 1]);
    expect(await host.call('tool.kv2.Get', ['greeting'])).toEqual(['from kv2', 1]);
    expect(await host.call('tool.kv.Note', ['cursor', 1])).toEqual([true, 1]);
    expect(await host.call('tool.kv2.Recall', ['cursor'])).toEqual([null, 0]);
  });

  it('of a plugin that names its pack memory is scoped too: the built-in tool.memory.* of another host does not see it', async () => {
    const plugin = hostFor([keyValuePack('memory')], { allow: ['**'], grants: ['*:*'] }, { stores: temp.stores });
    expect(await plugin.call('tool.memory.Put', ['greeting', 'hi'])).toEqual([true, 1]);
    const agent = hostFor(createSafeToolPacks(), { allow: ['**'], grants: ['memory:read'] }, { stores: temp.stores });
    expect(await agent.call('tool.memory.Get', ['greeting'])).toEqual([null, 0]);
  });

  it('goes through one view per pack for the life of the host', async () => {
    const seen: ToolContext['stores'][] = [];
    const host = hostFor([keyValuePack('kv', seen)], { allow: ['**'], grants: ['*:*'] }, { stores: temp.stores });
    await host.call('tool.kv.Put', ['a', 1]);
    await host.call('tool.kv.Get', ['a']);
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
    // A view of the pack's own, not the host's stores.
    expect(seen[0]?.memory).not.toBe(temp.stores.memory);
    expect(seen[0]?.scratch).not.toBe(temp.stores.scratch);
    // The idempotence store is shared: its records are keyed by session, turn and call.
    expect(seen[0]?.idempotence).toBe(temp.stores.idempotence);
  });

  it("refuses a pack's key holding U+0000 as the stores do, saying to leave it out, on memory and scratch, never showing the key", async () => {
    const host = hostFor([keyValuePack('kv')], { allow: ['**'], grants: ['*:*'] }, { stores: temp.stores });
    for (const [tool, method] of [['tool.kv.Put', 'memory.get'], ['tool.kv.Get', 'memory.get'], ['tool.kv.Note', 'scratch.get'], ['tool.kv.Recall', 'scratch.get']] as const) {
      const error = await host.fail(tool, tool.endsWith('Put') || tool.endsWith('Note') ? ['secret\u0000', 1] : ['secret\u0000']);
      expect([error.code, error.argument]).toEqual(['STORE_ARGUMENT_INVALID', 'key']);
      expect(error.message).toMatch(new RegExp(`^${tool}: ${method}\\(\\): key must be text without the NUL character \\(U\\+0000\\).* at index 6: use a key without the NUL character \\(pack kv\\)$`));
      expect(error.message).not.toContain('secret');
    }
    expect(await temp.stores.memory.get('pack:kv/secret')).toEqual({ value: null, version: 0 });
  });

  it("refuses a pack's key holding a lone surrogate as the stores do, saying to use well-formed text, so it never overwrites the U+FFFD key", async () => {
    const host = hostFor([keyValuePack('kv')], { allow: ['**'], grants: ['*:*'] }, { stores: temp.stores });
    expect(await host.call('tool.kv.Put', ['secret\uFFFD', 1])).toEqual([true, 1]);
    for (const [tool, method] of [['tool.kv.Put', 'memory.get'], ['tool.kv.Get', 'memory.get'], ['tool.kv.Note', 'scratch.get'], ['tool.kv.Recall', 'scratch.get']] as const) {
      const error = await host.fail(tool, tool.endsWith('Put') || tool.endsWith('Note') ? ['secret\uD800', 2] : ['secret\uD800']);
      expect([error.code, error.argument]).toEqual(['STORE_ARGUMENT_INVALID', 'key']);
      expect(error.message).toMatch(new RegExp(`^${tool}: ${method}\\(\\): key must be well-formed text, got a string of 7 characters whose character at index 6 is half of a surrogate pair \\(U\\+D800\\) without its other half, .*: use a key that is well-formed text \\(pack kv\\)$`));
      expect(error.message).not.toContain('secret');
    }
    expect(await temp.stores.memory.get('pack:kv/secret\uFFFD')).toEqual({ value: 1, version: 1 });
  });

  it("refuses a pack's bad key from code as the stores do, writing nothing under the bare prefix", async () => {
    const pack = defineToolPack('kv', [
      defineTool({ name: 'tool.kv.Blank', description: 'Writes an empty key.', args: [], returns: 'int', effect: 'write' }, async (_args, context) => (await memoryOf(context).cas('', 0, 'x')).version),
    ]);
    const error = await hostFor([pack], { allow: ['**'] }, { stores: temp.stores }).fail('tool.kv.Blank', []);
    expect(error.code).toBe('STORE_ARGUMENT_INVALID');
    expect(await temp.stores.memory.get('pack:kv/')).toEqual({ value: null, version: 0 });
  });
});
