/**
 * Every public method of the tool stores checks its arguments before the
 * backend sees them, with the rules of `store-arguments.ts`: one wrapper that
 * each backend returns its stores through (`openSqliteStore`,
 * `@askloop/postgres`'s `createPostgresToolStores`), so a bad value is the
 * same `STORE_ARGUMENT_INVALID` rejection whichever database is behind it.
 * A store written elsewhere can use it too.
 */
import type { IdempotenceStore, MemoryStore, ScratchStore, ToolStores } from './store-types.ts';
import { checkAge, checkIndex, checkName, checkObject, checkStoredValue, checkText, checkTtl } from './store-arguments.ts';

const VERSION = 'the version get returned; 0 when the key is absent';
const TURN = "the turn's index";
const CALL_INDEX = "the call's position in the turn";

/**
 * Each store {@link checkedMemory} or {@link checkedScratch} made, and the
 * store it checks for. Per copy of this module, not per process: a view that
 * skips a check must run this very check itself, not another version's.
 */
const checkedFor = new WeakMap<MemoryStore | ScratchStore, MemoryStore | ScratchStore>();

/** `checked`, remembered as checking for `below`. */
function remember<T extends MemoryStore | ScratchStore>(below: T, checked: T): T {
  checkedFor.set(checked, below);
  return checked;
}

/**
 * The store `store` checks its arguments for, when {@link checkedMemory} or
 * {@link checkedScratch} made it; else `store` itself. Only for a view that
 * runs the same checks on every argument first (a pack's scoped view, itself
 * a checked store): it calls this store, so a value is walked once, not once
 * by the view and again by the checked store below it.
 */
export function belowChecks<T extends MemoryStore | ScratchStore>(store: T): T {
  return (checkedFor.get(store) as T | undefined) ?? store;
}

/** `store` checking its arguments first (see {@link checkedToolStores}). */
export function checkedMemory(store: MemoryStore): MemoryStore {
  return remember(store, Object.freeze<MemoryStore>({
    async get(key) {
      checkName('memory.get', 'key', key, "'/ingest/queue/x'");
      return store.get(key);
    },
    async cas(key, expectedVersion, value) {
      checkName('memory.cas', 'key', key, "'/ingest/queue/x'");
      checkIndex('memory.cas', 'expectedVersion', expectedVersion, VERSION);
      checkStoredValue('memory.cas', 'value', value);
      return store.cas(key, expectedVersion, value);
    },
  }));
}

/** `store` checking its arguments first (see {@link checkedToolStores}). */
export function checkedScratch(store: ScratchStore): ScratchStore {
  return remember(store, Object.freeze<ScratchStore>({
    async get(session, key) {
      checkName('scratch.get', 'session', session, "'sid-1'");
      checkName('scratch.get', 'key', key, "'cursor'");
      return store.get(session, key);
    },
    async putCas(session, key, expectedVersion, value, ttlMs) {
      checkName('scratch.putCas', 'session', session, "'sid-1'");
      checkName('scratch.putCas', 'key', key, "'cursor'");
      checkIndex('scratch.putCas', 'expectedVersion', expectedVersion, 'the version get returned; 0 when the key is absent or expired');
      checkStoredValue('scratch.putCas', 'value', value);
      checkTtl('scratch.putCas', 'ttlMs', ttlMs);
      return store.putCas(session, key, expectedVersion, value, ttlMs);
    },
    purgeExpired: async () => store.purgeExpired(),
  }));
}

/** The (session, turn, call index) that keys a record, as `method` takes them. */
function checkSlot(method: string, session: unknown, turn: unknown, callIndex: unknown): void {
  checkName(method, 'session', session, "'sid-1'");
  checkIndex(method, 'turn', turn, TURN);
  checkIndex(method, 'callIndex', callIndex, CALL_INDEX);
}

function checkedIdempotence(store: IdempotenceStore): IdempotenceStore {
  const forgetBefore = store.forgetBefore?.bind(store);
  return Object.freeze<IdempotenceStore>({
    async lookup(session, turn, callIndex) {
      checkSlot('idempotence.lookup', session, turn, callIndex);
      return store.lookup(session, turn, callIndex);
    },
    async claim(key) {
      checkObject('idempotence.claim', 'key', key);
      checkSlot('idempotence.claim', key.session, key.turn, key.callIndex);
      checkName('idempotence.claim', 'tool', key.tool, "'tool.memory.CAS'");
      checkText('idempotence.claim', 'argumentsJson', key.argumentsJson);
      return store.claim(key);
    },
    async record(record) {
      checkObject('idempotence.record', 'record', record);
      checkSlot('idempotence.record', record.session, record.turn, record.callIndex);
      checkName('idempotence.record', 'tool', record.tool, "'tool.memory.CAS'");
      checkText('idempotence.record', 'argumentsJson', record.argumentsJson);
      checkStoredValue('idempotence.record', 'result', record.result);
      return store.record(record);
    },
    async release(session, turn, callIndex) {
      checkSlot('idempotence.release', session, turn, callIndex);
      return store.release(session, turn, callIndex);
    },
    // Optional in the interface: a store without it stays without it.
    ...(forgetBefore === undefined
      ? {}
      : {
          async forgetBefore(session: string, turn: number, olderThanMs: number) {
            checkName('idempotence.forgetBefore', 'session', session, "'sid-1'");
            checkIndex('idempotence.forgetBefore', 'turn', turn, "the turn whose earlier turns' records go");
            checkAge('idempotence.forgetBefore', 'olderThanMs', olderThanMs);
            return forgetBefore(session, turn, olderThanMs);
          },
        }),
  });
}

/**
 * `stores` with every method checking its arguments first: a bad one (an
 * empty or non-string key or session, one holding U+0000 or a lone
 * surrogate, a version, turn or call index that is
 * not a whole number >= 0, a TTL that is not a whole number of ms >= 1, an
 * age that is NaN, a value that is not plain JSON data) rejects with
 * `STORE_ARGUMENT_INVALID` and reaches no database.
 */
export function checkedToolStores(stores: ToolStores): ToolStores {
  return Object.freeze({ memory: checkedMemory(stores.memory), scratch: checkedScratch(stores.scratch), idempotence: checkedIdempotence(stores.idempotence) });
}
