/**
 * A pack's scoped view checks its arguments once. It checks the pack's key
 * before prefixing it (an empty key must not become `pack:kv/`), and every
 * other argument as the checked stores do; over a store `checkedToolStores`
 * made, it then calls the store below that check instead of having it walk
 * the value a second time (every plugin write did). Over a store that does
 * not check, it still refuses bad arguments before calling it.
 */
import { describe, expect, it } from 'vitest';
import { useTempStore } from '../../test/temp-store.ts';
import type { ToolValue } from '../spec/tool-value.ts';
import { checkedToolStores } from './checked-stores.ts';
import { scopeStoresToPack } from './pack-scoped-stores.ts';
import type { MemoryStore, ScratchStore, ToolStores } from './store-types.ts';

const temp = useTempStore();

/** A plain map whose one field counts how often it is read: each walk of the value reads it once. */
function counted(): { value: ToolValue; reads: () => number } {
  let reads = 0;
  const value = Object.defineProperty({}, 'n', {
    enumerable: true,
    get: () => {
      reads += 1;
      return 1;
    },
  }) as ToolValue;
  return { value, reads: () => reads };
}

/** How often a write of a counted value through `write` reads it. */
async function readsOf(write: (value: ToolValue) => Promise<unknown>): Promise<number> {
  const { value, reads } = counted();
  await write(value);
  return reads();
}

/** The rejection's code and message. */
async function refusal(call: Promise<unknown>): Promise<[unknown, unknown]> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown as { code?: unknown; message?: unknown },
  );
  return [error?.code, error?.message];
}

describe("a pack's scoped view of checked stores", () => {
  it('walks a written value as often as the checked store alone does: memory.cas', async () => {
    const direct = await readsOf((value) => temp.stores.memory.cas('direct', 0, value));
    const scoped = await readsOf((value) => scopeStoresToPack(temp.stores, 'kv').memory.cas('scoped', 0, value));
    expect(scoped).toBe(direct);
    expect(await temp.stores.memory.get('pack:kv/scoped')).toEqual({ value: { n: 1 }, version: 1 });
  });

  it('walks a written value as often as the checked store alone does: scratch.putCas', async () => {
    const direct = await readsOf((value) => temp.stores.scratch.putCas('s1', 'direct', 0, value, 60_000));
    const scoped = await readsOf((value) => scopeStoresToPack(temp.stores, 'kv').scratch.putCas('s1', 'scoped', 0, value, 60_000));
    expect(scoped).toBe(direct);
    expect(await temp.stores.scratch.get('s1', 'pack:kv/scoped')).toEqual({ value: { n: 1 }, version: 1 });
  });

  it('refuses each bad argument in the words of the checked store below, the key checked before the prefix', async () => {
    const scoped = scopeStoresToPack(temp.stores, 'kv');
    const bad: readonly (readonly [string, (stores: ToolStores) => Promise<unknown>])[] = [
      ['empty key', (stores) => stores.memory.get('')],
      ['NUL key', (stores) => stores.memory.cas('a\u0000', 0, 1)],
      ['NaN version', (stores) => stores.memory.cas('k', Number.NaN, 1)],
      ['undefined in a value', (stores) => stores.memory.cas('k', 0, { a: undefined } as never)],
      ['empty session', (stores) => stores.scratch.get('', 'k')],
      ['empty scratch key', (stores) => stores.scratch.putCas('s1', '', 0, 1, 1_000)],
      ['fractional ttl', (stores) => stores.scratch.putCas('s1', 'k', 0, 1, 1.5)],
      ['a function in a scratch value', (stores) => stores.scratch.putCas('s1', 'k', 0, { f: () => 1 } as never, 1_000)],
    ];
    for (const [label, call] of bad) {
      const [code, message] = await refusal(call(scoped));
      expect([label, code]).toEqual([label, 'STORE_ARGUMENT_INVALID']);
      expect([label, message]).toEqual([label, (await refusal(call(temp.stores)))[1]]);
    }
    expect(await temp.stores.memory.get('pack:kv/')).toEqual({ value: null, version: 0 });
  });
});

describe("a pack's scoped view of stores that do not check their arguments", () => {
  it('still refuses bad arguments before calling them, as checkedToolStores would', async () => {
    const calls: string[] = [];
    const memory: MemoryStore = {
      get: async (key) => (calls.push(`get ${key}`), { value: null, version: 0 }),
      cas: async (key) => (calls.push(`cas ${key}`), { ok: true, version: 1 }),
    };
    const scratch: ScratchStore = {
      get: async (_session, key) => (calls.push(`scratch get ${key}`), { value: null, version: 0 }),
      putCas: async (_session, key) => (calls.push(`scratch put ${key}`), { ok: true, version: 1 }),
      purgeExpired: async () => 0,
    };
    const raw = { memory, scratch, idempotence: temp.stores.idempotence };
    const scoped = scopeStoresToPack(raw, 'kv');
    const checked = checkedToolStores(raw);
    const bad: readonly ((stores: ToolStores) => Promise<unknown>)[] = [
      (stores) => stores.memory.get(''),
      (stores) => stores.memory.cas('k', -1, 1),
      (stores) => stores.memory.cas('k', 0, { d: new Date(0) } as never),
      (stores) => stores.scratch.putCas('s1', 'k', 0, 1, 0),
      (stores) => stores.scratch.get('s\u0000', 'k'),
    ];
    for (const call of bad) expect(await refusal(call(scoped))).toEqual(await refusal(call(checked)));
    expect(calls).toEqual([]);
    await scoped.memory.cas('k', 0, 'v');
    await scoped.scratch.get('s1', 'k');
    expect(calls).toEqual(['cas pack:kv/k', 'scratch get pack:kv/k']);
  });
});
