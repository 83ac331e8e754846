/**
 * The small store interfaces behind memory, scratch and idempotence (seed 000
 * §2.10–2.12). They are asynchronous so a server database can replace the
 * embedded SQLite store later without touching the tools.
 */
import type { ToolValue } from '../spec/tool-value.ts';

/** A value and its version. Version 0 means "absent" (and the value is nil). */
export interface VersionedValue {
  readonly value: ToolValue;
  readonly version: number;
}

/** The outcome of a compare-and-swap: whether it won, and the version now current. */
export interface CasResult {
  readonly ok: boolean;
  readonly version: number;
}

/** Durable, versioned key/value memory shared by all sessions. */
export interface MemoryStore {
  get(key: string): Promise<VersionedValue>;
  /** Writes `value` only if the current version is `expectedVersion` (0: the key must be absent). */
  cas(key: string, expectedVersion: number, value: ToolValue): Promise<CasResult>;
}

/** Per-session scratch entries that expire (seed 000 §2.11). */
export interface ScratchStore {
  /** The live entry, or `{ value: null, version: 0 }` when absent or expired. */
  get(session: string, key: string): Promise<VersionedValue>;
  /**
   * Writes if the live version is `expectedVersion` (0: absent or expired); the
   * entry expires `ttlMs` after now. Versions keep increasing across expiry, so
   * a version read before expiry never matches a newer entry.
   */
  putCas(session: string, key: string, expectedVersion: number, value: ToolValue, ttlMs: number): Promise<CasResult>;
  /** Deletes expired entries, keeping each key's last version so versions still increase; returns how many. */
  purgeExpired(): Promise<number>;
}

/** The recorded outcome of one write call (seed 000 §2.12). */
export interface IdempotenceRecord {
  readonly session: string;
  readonly turn: number;
  readonly callIndex: number;
  /** Canonical tool name. */
  readonly tool: string;
  /** Canonical JSON of the bound arguments. */
  readonly argumentsJson: string;
  readonly result: ToolValue;
  /** Milliseconds since the epoch, from the store's clock. */
  readonly recordedAt: number;
}

/** What a host asks to claim before running a write call. */
export type IdempotenceKey = Pick<IdempotenceRecord, 'session' | 'turn' | 'callIndex' | 'tool' | 'argumentsJson'>;

/**
 * The outcome of {@link IdempotenceStore.claim}: `claimed` (this caller owns
 * the slot and must `record` or `release` it), `recorded` (the call finished
 * earlier; replay its result) or `pending` (another caller owns the slot and
 * has not finished).
 */
export type IdempotenceClaim =
  | { readonly state: 'claimed' }
  | { readonly state: 'recorded'; readonly record: IdempotenceRecord }
  | { readonly state: 'pending'; readonly tool: string; readonly argumentsJson: string };

/** Results of write calls, keyed by (session, turn, call index). */
export interface IdempotenceStore {
  /** The finished record at the key, if any (a pending claim is not returned). */
  lookup(session: string, turn: number, callIndex: number): Promise<IdempotenceRecord | undefined>;
  /**
   * Atomically claims the slot for `key` unless it is taken: exactly one of
   * several concurrent callers (any connection or process) gets `claimed`.
   */
  claim(key: IdempotenceKey): Promise<IdempotenceClaim>;
  /**
   * Fills in the result of a claimed slot (or stores the record when none is
   * there); a finished record is never replaced. Returns the record that is stored.
   */
  record(record: Omit<IdempotenceRecord, 'recordedAt'>): Promise<IdempotenceRecord>;
  /** Gives up a pending claim (the call failed), so a later replay runs the call again. A finished record is kept. */
  release(session: string, turn: number, callIndex: number): Promise<void>;
  /**
   * Removes the session's records of turns before `turn` that were recorded
   * (or claimed, when pending) more than `olderThanMs` ago by the store's own
   * clock (the one that stamps `recordedAt`; a negative or fractional age is
   * taken as its whole part, at least 0), and returns how many it removed.
   * Never waits for a record another transaction holds: that one is left.
   * For a host whose sessions run one turn at a time, in order (the
   * controller's), through `createToolHost({ pruneEarlierTurnsAfterMs })`.
   * Optional: a store without it keeps every record.
   */
  forgetBefore?(session: string, turn: number, olderThanMs: number): Promise<number>;
}

/** The stores a tool host works with. */
export interface ToolStores {
  readonly memory: MemoryStore;
  readonly scratch: ScratchStore;
  readonly idempotence: IdempotenceStore;
}
