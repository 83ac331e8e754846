/**
 * A tool pack's own view of the host's memory and scratch stores. A plugin
 * that keeps state through `context.stores` used to share one key space with
 * the built-in `tool.memory.*` and `tool.scratch.*` tools: an agent granted
 * only `memory:read` could read a plugin's state, and one with `memory:write`
 * overwrite it, without the plugin's own capability. Each pack's keys are
 * stored under `pack:<name>/`, which the built-in tools refuse, so a pack
 * reaches only its own keys and no program reaches them through those tools.
 */
import type { MemoryStore, ScratchStore, ToolStores } from './store-types.ts';
import { belowChecks, checkedMemory, checkedScratch } from './checked-stores.ts';

/** The start of every key a pack keeps through `context.stores`; `tool.memory.*` and `tool.scratch.*` refuse keys that start with it. */
export const PACK_STORE_PREFIX = 'pack:';

/**
 * Where `pack`'s `key` is stored in the shared memory and scratch stores:
 * `pack:<pack>/<key>`. The name is URI-encoded (a name that
 * `defineToolPack` accepts is unchanged), so a hand-made pack named `a/b` and
 * a pack `a` writing `b/x` never meet. Use it to move a pack's keys written
 * before stores were scoped: copy `key` to `packStoreKey(pack, key)`.
 */
export function packStoreKey(pack: string, key: string): string {
  return `${PACK_STORE_PREFIX}${encodeURIComponent(pack)}/${key}`;
}

/*
 * Each view checks every argument itself, the key before the prefix (an empty or non-string key would otherwise
 * become a valid one, 'pack:kv/'), then calls the store below the checked one it was given (`belowChecks`): the
 * prefixed key of a valid key is valid, and the rest are the arguments just checked, so checking them again walked
 * every value a plugin wrote twice. A store that does not check is called as it is, after the view's checks.
 */
function scopedMemory(checked: MemoryStore, prefix: string): MemoryStore {
  const store = belowChecks(checked);
  return checkedMemory({
    get: (key) => store.get(prefix + key),
    cas: (key, expectedVersion, value) => store.cas(prefix + key, expectedVersion, value),
  });
}

function scopedScratch(checked: ScratchStore, prefix: string): ScratchStore {
  const store = belowChecks(checked);
  return checkedScratch({
    get: (session, key) => store.get(session, prefix + key),
    putCas: (session, key, expectedVersion, value, ttlMs) => store.putCas(session, prefix + key, expectedVersion, value, ttlMs),
    // Expired entries are gone for every reader alike; purging them is not reaching anyone's state.
    purgeExpired: () => store.purgeExpired(),
  });
}

/**
 * `stores` as the pack `pack` sees them: `memory` and `scratch` keep every
 * key under {@link packStoreKey} and give back values and versions as they
 * are (so the pack sees exactly its own keys and versions), checking their
 * arguments as `checkedToolStores` does; `idempotence` is shared (its
 * records are keyed by session, turn and call). A store `stores` lacks stays
 * absent. The tool host gives each pack but the built-in memory and scratch
 * packs such a view as `context.stores`, made once per pack per host.
 */
export function scopeStoresToPack(stores: ToolStores, pack: string): ToolStores;
export function scopeStoresToPack(stores: Partial<ToolStores>, pack: string): Partial<ToolStores>;
export function scopeStoresToPack(stores: Partial<ToolStores>, pack: string): Partial<ToolStores> {
  const prefix = packStoreKey(pack, '');
  return Object.freeze({
    ...(stores.memory === undefined ? {} : { memory: scopedMemory(stores.memory, prefix) }),
    ...(stores.scratch === undefined ? {} : { scratch: scopedScratch(stores.scratch, prefix) }),
    ...(stores.idempotence === undefined ? {} : { idempotence: stores.idempotence }),
  });
}
