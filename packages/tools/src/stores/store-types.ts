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
  /** Deletes expired entries; returns how many. */
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

/** Results of write calls, keyed by (session, turn, call index). */
export interface IdempotenceStore {
  lookup(session: string, turn: number, callIndex: number): Promise<IdempotenceRecord | undefined>;
  /** Stores the record unless one exists for the key; returns the record that is stored (the earlier one on a race). */
  record(record: Omit<IdempotenceRecord, 'recordedAt'>): Promise<IdempotenceRecord>;
}

/** The stores a tool host works with. */
export interface ToolStores {
  readonly memory: MemoryStore;
  readonly scratch: ScratchStore;
  readonly idempotence: IdempotenceStore;
}
