/**
 * The embedded transcript store: sessions and their turn records in one
 * SQLite file through Node 24's built-in `node:sqlite` (no native
 * dependency). The file is opened with `@askloop/tools`' `openDatabase` (WAL,
 * a busy timeout) and migrated under the owner `controller`, so the tools'
 * memory, scratch and idempotence stores can live in the same file
 * (`openToolStores()`, or `openSqliteStore(store.database)`). Statements are
 * prepared once; every write runs inside `BEGIN IMMEDIATE` (queued writes
 * together, a savepoint each: `sqlite-write-batch.ts`), so two
 * hosts on one file serialise their writes; they take turns on a session
 * through leases with fencing tokens (`fenced-leases.ts`,
 * `sqlite-leases.ts`). The records are plain JSON text; the columns beside
 * them exist only to filter and order. The agent's shared part
 * of a turn's system text (rules, instructions, catalogue: several KB, the
 * same on every turn) is kept once in `controller_texts` by content hash, and
 * a turn's JSON holds the rest with the hash (`sqlite-turn-texts.ts`); reads
 * put the text back, so a record comes back exactly as saved.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { applyMigrations, loadSqlite, openDatabase, openSqliteStore, systemClock, type Clock, type SqliteToolStore } from '@askloop/tools';
import type { LoopDecision } from '../decide/loop-decision.ts';
import type { LoopTally } from '../decide/loop-tally.ts';
import { isLoopError, LoopError } from '../errors/loop-error.ts';
import type { TurnRecord } from '../loop/turn-record.ts';
import { TRANSCRIPT_MIGRATION_OWNER, TRANSCRIPT_MIGRATIONS } from './sqlite-transcript-migrations.ts';
import { createFencedLeases } from './fenced-leases.ts';
import { requireListOptions, requireSessionFilter, storedTask } from './list-options.ts';
import { createSqliteSessionList } from './sqlite-session-list.ts';
import { MAX_TURN_INDEX, requireSessionId, requireTurnIndex } from './store-keys.ts';
import { requireTurnRange } from './turn-range.ts';
import { sessionExistsError } from './session-exists-error.ts';
import { sqliteLeaseExpiry, sqliteLeaseTable } from './sqlite-leases.ts';
import { createSqliteTurnTexts } from './sqlite-turn-texts.ts';
import { createWriteBatch } from './sqlite-write-batch.ts';
import type { ListSessionsOptions, SessionFilter, SessionRecord, SessionStatus, TranscriptStore } from './transcript-store.ts';

/** Options of {@link createSqliteTranscriptStore}. */
export interface SqliteTranscriptStoreOptions {
  /** How long to wait for another connection's write lock, in ms. Default 5000. Only when a path is given. */
  readonly busyTimeoutMs?: number;
  /**
   * Stamps `applied_at` of the migrations, times the session leases (when one expires), and is the tools' stores'
   * clock in `openToolStores`. Default the system clock.
   */
  readonly clock?: Clock;
  /**
   * Open an existing file for reading only (a viewer, `sessions` listings):
   * nothing is created or migrated, and every write rejects with
   * `LOOP_STORE_ERROR`. The file must already hold the controller's tables.
   * Only when a path is given.
   */
  readonly readOnly?: boolean;
}

const STORE_OPTIONS = ['busyTimeoutMs', 'clock', 'readOnly'] as const;

/**
 * `LOOP_CONFIG_INVALID` for a file that is neither a path nor a connection,
 * and for an option the store does not have: `{ readonly: true }` (for
 * `readOnly`) used to open the file writable and migrate it.
 */
function checkStoreArguments(pathOrDatabase: unknown, options: unknown): void {
  const invalid = (message: string): LoopError => new LoopError({ code: 'LOOP_CONFIG_INVALID', message: `createSqliteTranscriptStore: ${message}` });
  const isConnection = typeof pathOrDatabase === 'object' && pathOrDatabase !== null && typeof (pathOrDatabase as { prepare?: unknown }).prepare === 'function' && typeof (pathOrDatabase as { exec?: unknown }).exec === 'function';
  if ((typeof pathOrDatabase !== 'string' || pathOrDatabase === '') && !isConnection) {
    throw invalid(`the first argument is a file path (or ':memory:') or a node:sqlite DatabaseSync, got ${pathOrDatabase === '' ? 'an empty path' : pathOrDatabase === null ? 'null' : typeof pathOrDatabase}`);
  }
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw invalid(`its options are an object ({ ${STORE_OPTIONS.join(', ')} }), got ${options === null ? 'null' : typeof options}`);
  for (const [name, value] of Object.entries(options)) {
    if ((STORE_OPTIONS as readonly string[]).includes(name) || value === undefined) continue;
    const closest = STORE_OPTIONS.find((known) => known.toLowerCase() === name.toLowerCase());
    throw invalid(`there is no option '${name}'${closest === undefined ? '' : `; did you mean '${closest}'?`} (the options: ${STORE_OPTIONS.join(', ')})`);
  }
}

/** The SQLite transcript store, with its connection for other owners of the same file. */
export interface SqliteTranscriptStore extends TranscriptStore {
  /** The database file (`:memory:` for a throwaway one). */
  readonly file: string;
  /** The open connection: hand it to `openSqliteStore` (or another owner) to share the file. */
  readonly database: DatabaseSync;
  /** The controller's schema version in the file: after migration, or as found when opened `readOnly` (never migrated). */
  readonly schemaVersion: number;
  /** How many sessions `filter` matches, by one `COUNT(*)` query (see {@link TranscriptStore.countSessions}). */
  countSessions(filter?: SessionFilter): Promise<number>;
  /**
   * The tools' memory, scratch and idempotence stores on this same
   * connection (their migrations run under the owner `tools`); closing them
   * leaves the connection open. `createAskLoop` calls this by default.
   */
  openToolStores(options?: { readonly clock?: Clock }): SqliteToolStore;
}

type Row = Record<string, unknown>;


function storeError(action: string, error: unknown, sid?: string): LoopError {
  if (isLoopError(error)) return error;
  return new LoopError({ code: 'LOOP_STORE_ERROR', message: `the SQLite transcript store failed in ${action}: ${error instanceof Error ? error.message : String(error)}`, cause: error, ...(sid === undefined ? {} : { sid }) });
}

/** Runs a synchronous statement as the interface's promise, its failures as `LOOP_STORE_ERROR`. */
function run<T>(action: string, body: () => T, sid?: string): Promise<T> {
  try {
    return Promise.resolve(body());
  } catch (error) {
    return Promise.reject(storeError(action, error, sid));
  }
}

const SESSION_COLUMNS = 'sid, agent, agent_definition, userdata, status, created_at, updated_at, turns, last_decision, parent_sid, tally';
/** The tally column came with schema version 3: a read-only look at an older file reads none. */
const sessionColumnsOf = (version: number): string => (version >= 3 ? SESSION_COLUMNS : SESSION_COLUMNS.replace(', tally', ', NULL AS tally'));

/** The controller's schema version recorded in `database` (0 when it has none). */
function recordedVersion(database: DatabaseSync): number {
  const table = database.prepare("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
  if (table === undefined) return 0;
  const row = database.prepare('SELECT MAX(version) AS version FROM schema_migrations WHERE owner = ?').get(TRANSCRIPT_MIGRATION_OWNER) as Row | undefined;
  return row?.version === null || row?.version === undefined ? 0 : Number(row.version);
}


/** Opens `path` read-only and checks it holds a transcript this package can read; returns its schema version. */
function openReadOnly(path: string, busyTimeoutMs: number | undefined): { readonly database: DatabaseSync; readonly version: number } {
  const database = new (loadSqlite().DatabaseSync)(path, { readOnly: true, timeout: busyTimeoutMs ?? 5000 });
  try {
    const version = recordedVersion(database);
    if (version === 0) throw new Error(`${path} holds no AskLoop transcript (no '${TRANSCRIPT_MIGRATION_OWNER}' migrations)`);
    if (version > TRANSCRIPT_MIGRATIONS.length) throw new Error(`database schema version ${version} of '${TRANSCRIPT_MIGRATION_OWNER}' is newer than the ${TRANSCRIPT_MIGRATIONS.length} this package knows`);
    return { database, version };
  } catch (error) {
    database.close();
    throw error;
  }
}

function toSession(row: Row): SessionRecord {
  return {
    sid: String(row.sid),
    agent: String(row.agent),
    agentDefinition: JSON.parse(String(row.agent_definition)),
    userdata: JSON.parse(String(row.userdata)),
    status: String(row.status) as SessionStatus,
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
    turns: Number(row.turns),
    ...(row.last_decision === null ? {} : { lastDecision: JSON.parse(String(row.last_decision)) as LoopDecision }),
    ...(row.parent_sid === null ? {} : { parentSid: String(row.parent_sid) }),
    ...(row.tally === null || row.tally === undefined ? {} : { tally: JSON.parse(String(row.tally)) as LoopTally }),
  };
}

/** A session row's values in `SESSION_COLUMNS` order, then its stored task (written, never read back). */
type SessionValues = [sid: string, agent: string, agentDefinition: string, userdata: string, status: string, createdAt: string, updatedAt: string, turns: number, lastDecision: string | null, parentSid: string | null, tally: string | null, task: string];

/** The session's columns in `SESSION_COLUMNS` order (JSON text for the nested records), then `task`. */
function sessionValues(session: SessionRecord): SessionValues {
  return [
    session.sid,
    session.agent,
    JSON.stringify(session.agentDefinition),
    JSON.stringify(session.userdata),
    session.status,
    session.createdAt,
    session.updatedAt,
    session.turns,
    session.lastDecision === undefined ? null : JSON.stringify(session.lastDecision),
    session.parentSid ?? null,
    session.tally === undefined ? null : JSON.stringify(session.tally),
    storedTask(session.userdata),
  ];
}

/**
 * Opens (creating and migrating if needed) the transcript in `path` — or on
 * `database`, a connection already open on a file other owners share (see
 * `openDatabase`; `close()` then leaves it open). Use `':memory:'` for a
 * throwaway store. Throws `LOOP_STORE_ERROR` when the file cannot be opened
 * or its controller schema is newer than this package.
 */
export function createSqliteTranscriptStore(pathOrDatabase: string | DatabaseSync, options: SqliteTranscriptStoreOptions = {}): SqliteTranscriptStore {
  checkStoreArguments(pathOrDatabase, options);
  const clock = options.clock ?? systemClock;
  const owned = typeof pathOrDatabase === 'string';
  let database: DatabaseSync | undefined;
  let schemaVersion: number;
  try {
    if (owned && options.readOnly === true) {
      ({ database, version: schemaVersion } = openReadOnly(pathOrDatabase, options.busyTimeoutMs));
    } else {
      database = owned ? openDatabase(pathOrDatabase, options.busyTimeoutMs === undefined ? {} : { busyTimeoutMs: options.busyTimeoutMs }) : pathOrDatabase;
      schemaVersion = applyMigrations(database, TRANSCRIPT_MIGRATION_OWNER, TRANSCRIPT_MIGRATIONS, { clock });
    }
  } catch (error) {
    if (owned && database?.isOpen === true) database.close();
    // Named once: the tools' open error already says which file ("store open of FILE failed: …"); a migration's does not.
    const what = owned ? pathOrDatabase : 'a shared connection';
    const named = error instanceof Error && error.message.includes(what);
    throw storeError(named ? 'open' : `open of ${what}`, error);
  }
  const db: DatabaseSync = database;
  const file = db.location() ?? ':memory:';

  const columns = sessionColumnsOf(schemaVersion);
  const prepareAll = () => ({
    // A read-only store on an older file would prepare its writes against columns it may not have: they are never run.
    ...(options.readOnly === true && schemaVersion < TRANSCRIPT_MIGRATIONS.length
      ? { insertSession: undefined, updateSession: undefined, updateSessionIndexed: undefined }
      : {
          insertSession: db.prepare(`INSERT INTO controller_sessions (${SESSION_COLUMNS}, task) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
          // Two statements, because SQLite rewrites the entries of every index on a column an UPDATE sets, changed or
          // not: the indexed columns (status, created_at) are set only when they differ, which is rarely on a turn's save.
          updateSession: db.prepare(
            'UPDATE controller_sessions SET agent = ?, agent_definition = ?, userdata = ?, updated_at = ?, turns = ?, last_decision = ?, parent_sid = ?, tally = ?, task = ? WHERE sid = ?',
          ),
          updateSessionIndexed: db.prepare('UPDATE controller_sessions SET status = ?1, created_at = ?2 WHERE sid = ?3 AND (status IS NOT ?1 OR created_at IS NOT ?2)'),
        }),
    selectSession: db.prepare(`SELECT ${columns} FROM controller_sessions WHERE sid = ?`),
    sessionExists: db.prepare('SELECT 1 AS found FROM controller_sessions WHERE sid = ?'),
    upsertTurn: db.prepare(
      `INSERT INTO controller_turns (sid, turn_index, loop_id, kind, phase, started_at, ended_at, decision, record) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (sid, turn_index) DO UPDATE SET loop_id = excluded.loop_id, kind = excluded.kind, phase = excluded.phase,
         started_at = excluded.started_at, ended_at = excluded.ended_at, decision = excluded.decision, record = excluded.record`,
    ),
    listTurns: db.prepare('SELECT record FROM controller_turns WHERE sid = ? ORDER BY turn_index'),
    // The latest `last` of the range by the primary key, then put back in order (LIMIT -1: no limit).
    listTurnRange: db.prepare(
      'SELECT record FROM (SELECT turn_index, record FROM controller_turns WHERE sid = ? AND turn_index BETWEEN ? AND ? ORDER BY turn_index DESC LIMIT ?) ORDER BY turn_index',
    ),
    lastTurn: db.prepare('SELECT record FROM controller_turns WHERE sid = ? ORDER BY turn_index DESC LIMIT 1'),
  }) satisfies Record<string, StatementSync | undefined>;
  let statements: ReturnType<typeof prepareAll>;
  try {
    statements = prepareAll();
  } catch (error) {
    if (owned && db.isOpen) db.close();
    throw storeError(`open of ${file}`, error);
  }
  const leases = createFencedLeases(sqliteLeaseTable(db));
  const leaseExpiryOf = sqliteLeaseExpiry(db);

  const notFound = (sid: string) => new LoopError({ code: 'LOOP_SESSION_NOT_FOUND', message: `no session ${sid}`, sid });

  const turnTexts = createSqliteTurnTexts(db);
  const sessionList = createSqliteSessionList(db, columns, schemaVersion);
  const writable = <T>(statement: T | undefined): T => {
    if (statement === undefined) throw new Error(`${file} is open read-only`);
    return statement;
  };
  /** Replaces the session's row with `values` (taken when the write was asked for), every column but its id; inside a transaction. */
  const replaceSession = (values: SessionValues): void => {
    const [sid, agent, agentDefinition, userdata, status, createdAt, ...rest] = values;
    if (Number(writable(statements.updateSession).run(agent, agentDefinition, userdata, ...rest, sid).changes) === 0) throw notFound(sid);
    writable(statements.updateSessionIndexed).run(status, createdAt, sid);
  };

  const batch = createWriteBatch(db);
  /** Queues a write for the batch's transaction (`sqlite-write-batch.ts`); its failures as `LOOP_STORE_ERROR`. */
  const write = <T>(action: string, statements: () => T, sid?: string): Promise<T> => batch.write(statements, (error) => storeError(action, error, sid));
  /**
   * Takes a write's values now (serialised outside the write lock, and as they are at the call), then queues the
   * statements that write them. Made in a step under a lease this store took, the write first checks, in its
   * transaction, that the lease was not taken over (`fenced-leases.ts`).
   */
  const valuesThen = <V, T>(action: string, sid: string, values: () => V, statements: (values: V) => T): Promise<T> => {
    let taken: V;
    const fence = leases.fenceFor(sid);
    try {
      taken = values();
    } catch (error) {
      return Promise.reject(storeError(action, error, sid));
    }
    return write(action, () => {
      fence?.();
      return statements(taken);
    }, sid);
  };
  /**
   * A call's arguments checked before anything is queued or read: a refusal as the call's rejected promise, or
   * undefined to go on. Not an `async` wrapper around each call: its extra turns of the microtask queue moved
   * awaited writes past their batch's commit (1.2–1.4 commits a turn became 1.8–2.1 at 100 sessions).
   */
  const refused = (check: () => void): Promise<never> | undefined => {
    try {
      check();
      return undefined;
    } catch (error) {
      return Promise.reject(error);
    }
  };
  /** Runs a read after the queued writes are committed, so it sees every write asked for before it. */
  const read = <T>(action: string, query: () => T, sid?: string): Promise<T> =>
    run(action, () => {
      batch.flush();
      return query();
    }, sid);

  return {
    file,
    database: db,
    schemaVersion,
    openToolStores: (toolOptions = {}) => openSqliteStore(db, { clock: toolOptions.clock ?? clock }),
    // Every write takes its values when it is asked for (its batch commits later): a record or session the caller
    // changes afterwards is saved as it was at the call, its JSON and its columns alike.
    createSession: (session) =>
      refused(() => requireSessionId(session.sid, 'createSession')) ??
      valuesThen('createSession', session.sid, () => sessionValues(session), (values) => {
        if (statements.sessionExists.get(session.sid) !== undefined) throw sessionExistsError(session.sid);
        writable(statements.insertSession).run(...values);
      }),
    getSession: (sid) =>
      refused(() => requireSessionId(sid, 'getSession')) ??
      read('getSession', () => {
        const row = statements.selectSession.get(sid) as Row | undefined;
        return row === undefined ? undefined : toSession(row);
      }, sid),
    updateSession: (session) =>
      refused(() => requireSessionId(session.sid, 'updateSession')) ??
      valuesThen('updateSession', session.sid, () => sessionValues(session), replaceSession),
    listSessions: (listOptions: ListSessionsOptions = {}) =>
      refused(() => requireListOptions(listOptions)) ??
      read('listSessions', () => (sessionList.list(listOptions) as Row[]).map(toSession)),
    countSessions: (filter: SessionFilter = {}) => refused(() => requireSessionFilter(filter)) ?? read('countSessions', () => sessionList.count(filter)),
    saveTurn: (record: TurnRecord, session?: SessionRecord) =>
      refused(() => {
        requireSessionId(record.sid, 'saveTurn');
        requireTurnIndex(record.turnIndex, 'saveTurn');
        if (session !== undefined) requireSessionId(session.sid, 'saveTurn');
      }) ??
      valuesThen(
        'saveTurn',
        record.sid,
        () => {
          const { json, text } = turnTexts.toStored(record);
          const turn = [record.sid, record.turnIndex, record.loopId, record.kind, record.phase, record.startedAt, record.endedAt ?? null, record.decision?.kind ?? null, json] as const;
          return { turn, text, session: session === undefined ? undefined : sessionValues(session) };
        },
        ({ turn, text, session: sessionRow }) => {
          if (statements.sessionExists.get(record.sid) === undefined) throw notFound(record.sid);
          // In the same transaction as the turn that refers to it.
          if (text !== undefined) turnTexts.insert(text);
          statements.upsertTurn.run(...turn);
          if (sessionRow !== undefined) replaceSession(sessionRow);
          return text;
        },
      ).then((text) => {
        if (text !== undefined) turnTexts.committed(text);
      }),
    listTurns: (sid) =>
      refused(() => requireSessionId(sid, 'listTurns')) ??
      read('listTurns', () => (statements.listTurns.all(sid) as Row[]).map((row) => turnTexts.fromStored(String(row.record))), sid),
    listTurnRange: (sid, range) =>
      refused(() => (requireSessionId(sid, 'listTurnRange'), requireTurnRange(range))) ??
      read(
        'listTurnRange',
        () => (statements.listTurnRange.all(sid, range.from ?? 1, range.to ?? MAX_TURN_INDEX, range.last ?? -1) as Row[]).map((row) => turnTexts.fromStored(String(row.record))),
        sid,
      ),
    lastTurn: (sid) =>
      refused(() => requireSessionId(sid, 'lastTurn')) ??
      read('lastTurn', () => {
        const row = statements.lastTurn.get(sid) as Row | undefined;
        return row === undefined ? undefined : turnTexts.fromStored(String(row.record));
      }, sid),
    // The clock is read when the write runs, so a lease queued behind others is not shortened by the wait.
    acquireLease: (sid, holder, ttlMs) =>
      refused(() => requireSessionId(sid, 'acquireLease')) ??
      write('acquireLease', () => leases.acquire(sid, holder, ttlMs, clock.now()), sid).then(
        (held) => {
          leases.settle(sid, holder, true);
          return held;
        },
        (error: unknown) => {
          // The batch's transaction failed: a take made in it never reached the table.
          leases.settle(sid, holder, false);
          throw error;
        },
      ),
    releaseLease: (sid, holder) =>
      refused(() => requireSessionId(sid, 'releaseLease')) ??
      write('releaseLease', () => leases.release(sid, holder), sid),
    leaseExpiresAt: (sid) =>
      refused(() => requireSessionId(sid, 'leaseExpiresAt')) ??
      read('leaseExpiresAt', () => leaseExpiryOf(sid), sid),
    close: () =>
      run('close', () => {
        batch.flush();
        // A shared connection belongs to whoever opened it.
        if (owned && db.isOpen) db.close();
      }),
  };
}
