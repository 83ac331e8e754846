/**
 * How the SQLite transcript store keeps system texts: the agent's shared
 * part of a turn's system text (rules, instructions, catalogue: several KB,
 * the same on every turn of the agent) once in `controller_texts` by content
 * hash, and in the turn's JSON only the rest with the hash (`systemRef`).
 * Reading puts the text back in place, so a record comes back exactly as it
 * was saved (same string, same key order). Any text splits and joins back
 * exactly; where it splits (`sharedSystemLength`) only decides how much is
 * shared.
 */
import { createHash } from 'node:crypto';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { sharedSystemLength } from '../loop/system-text.ts';
import type { TurnRecord } from '../loop/turn-record.ts';

/** Below this many characters a shared system text is stored inline: a reference would not pay. */
const SHARED_TEXT_MIN = 512;
/** The key of a turn's JSON that names its shared system text (never a field of a `TurnRecord`). */
const SYSTEM_REF = 'systemRef';
/** Texts (and hashes) a store remembers; a store meets a new one only when an agent or its catalogue changes. */
const REMEMBERED = 256;

/** A shared text a write must store with its turn. */
export interface SharedText {
  readonly hash: string;
  readonly text: string;
}

/** The store's side of system texts. */
export interface SqliteTurnTexts {
  /** The turn's JSON as stored, and the shared text when this connection has not stored it yet. */
  toStored(record: TurnRecord): { readonly json: string; readonly text?: SharedText };
  /** Stores `text`; call inside the transaction that saves the turn referring to it. */
  insert(text: SharedText): void;
  /** Records that the transaction storing `text` committed (later writes refer to it without storing it). */
  committed(text: SharedText): void;
  /** A stored turn's JSON as the record that was saved. */
  fromStored(json: string): TurnRecord;
}

const remember = <K, V>(map: Map<K, V>, key: K, value: V): V => {
  if (map.size >= REMEMBERED) map.delete(map.keys().next().value as K);
  map.set(key, value);
  return value;
};

/** Where a system text splits into its shared part (stored once, as `hash`) and the turn's own. */
type SystemSplit = { readonly cut: number; readonly hash: string } | typeof NOT_SHARED;
/** A system text whose shared part is too short to store apart. */
const NOT_SHARED = 'not-shared';

function splitOf(system: string): SystemSplit {
  const cut = sharedSystemLength(system);
  if (cut < SHARED_TEXT_MIN) return NOT_SHARED;
  return { cut, hash: `sha256:${createHash('sha256').update(system.slice(0, cut)).digest('hex')}` };
}

/** System texts on `db` (migrated to schema version 3, or read-only and older: then no turn refers to a text). */
export function createSqliteTurnTexts(db: DatabaseSync): SqliteTurnTexts {
  const splits = new Map<string, SystemSplit>();
  const texts = new Map<string, string>();
  const stored = new Set<string>();
  let statements: { readonly insert: StatementSync; readonly select: StatementSync } | undefined;
  // Prepared on first use: a read-only store on a file from before schema 3 has no such table (and no references).
  const sql = () =>
    (statements ??= {
      insert: db.prepare('INSERT INTO controller_texts (hash, text) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING'),
      select: db.prepare('SELECT text FROM controller_texts WHERE hash = ?'),
    });
  return {
    toStored(record) {
      // Keyed by the whole system text: turns share one string per agent and budget line, whose hash V8 keeps, so a
      // save neither slices nor hashes several KB again.
      const split = splits.get(record.system) ?? remember(splits, record.system, splitOf(record.system));
      if (split === NOT_SHARED) return { json: JSON.stringify(record) };
      const json = JSON.stringify({ ...record, system: record.system.slice(split.cut), [SYSTEM_REF]: split.hash });
      return stored.has(split.hash) ? { json } : { json, text: { hash: split.hash, text: record.system.slice(0, split.cut) } };
    },
    insert(text) {
      sql().insert.run(text.hash, text.text);
    },
    committed(text) {
      if (stored.size >= REMEMBERED) stored.clear();
      stored.add(text.hash);
      remember(texts, text.hash, text.text);
    },
    fromStored(json) {
      const parsed = JSON.parse(json) as TurnRecord & { [SYSTEM_REF]?: string };
      const hash = parsed[SYSTEM_REF];
      if (hash === undefined) return parsed;
      let text = texts.get(hash);
      if (text === undefined) {
        const row = sql().select.get(hash) as { text?: unknown } | undefined;
        if (row === undefined) throw new Error(`the shared system text ${hash} of a turn of session ${parsed.sid} is missing`);
        text = remember(texts, hash, String(row.text));
      }
      // In place, so the record's keys keep the order they were saved in.
      (parsed as { system: string }).system = text + parsed.system;
      delete parsed[SYSTEM_REF];
      return parsed;
    },
  };
}
