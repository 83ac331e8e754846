/**
 * `listSessions` and `countSessions` of the SQLite store, each one query:
 * each filter of `ListSessionsOptions` is a condition in SQL, with the meaning
 * `sessionMatchesList` gives it, so a page or a search of a large file reads
 * only the rows it returns, and a count reads none. A statement is prepared
 * per set of filters used (at most 48: a list and a count of each) and kept.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { foldAsciiCase, storedTaskOfText } from './list-options.ts';
import type { ListSessionsOptions, SessionFilter } from './transcript-store.ts';

// SQLite's lower() folds the ASCII letters only (no ICU in node:sqlite), as foldAsciiCase does; instr() finds a
// substring. The task is the row's `task` column (`storedTask`, written with the row). A read-only look at a file
// from before that column (schema 6) reads the task out of USERDATA with the same code (`storedTaskOfText`,
// registered on the connection), which costs a JSON parse a row.
const TASK_CONTAINS = 'askloop_task_contains';
const TASK_COLUMN_VERSION = 6;
const searchCondition = (version: number): string =>
  `(instr(lower(sid), ?) > 0 OR instr(lower(agent), ?) > 0 OR ${version >= TASK_COLUMN_VERSION ? 'instr(lower(task), ?) > 0' : `${TASK_CONTAINS}(userdata, ?)`})`;

/** Connections that have the function: it is the same for every store on one, and registering it again while another statement runs there fails. */
const registered = new WeakSet<DatabaseSync>();

/** The SQLite store's session list and count, for filters checked before (`requireListOptions`, `requireSessionFilter`). */
export interface SqliteSessionList {
  /** The rows of the store's session columns that `options` lists, newest first. */
  list(options: ListSessionsOptions): unknown[];
  /** How many rows `filter` matches (`COUNT(*)`: no row is read out). */
  count(filter: SessionFilter): number;
}

/** The session list and count of `db`, a file of `schemaVersion`, reading `columns` for a list. */
export function createSqliteSessionList(db: DatabaseSync, columns: string, schemaVersion: number): SqliteSessionList {
  const statements = new Map<string, StatementSync>();
  let utf8: boolean | undefined;
  const prepared = (sql: string): StatementSync => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  /** The `WHERE` clause of `filter` ('' for none) and its values. */
  const where = (filter: SessionFilter): { readonly clause: string; readonly values: SQLInputValue[] } => {
    const conditions: string[] = [];
    const values: SQLInputValue[] = [];
    if (filter.status !== undefined) {
      conditions.push('status = ?');
      values.push(filter.status);
    }
    if (filter.parentSid !== undefined) {
      conditions.push('parent_sid = ?');
      values.push(filter.parentSid);
    }
    if (filter.sidPrefix !== undefined) {
      utf8 ??= (db.prepare('PRAGMA encoding').get() as { encoding?: unknown } | undefined)?.encoding === 'UTF-8';
      if (utf8) {
        // A range of the sid index: UTF-8 text compares by its bytes, which order as the code points do, so the ids
        // starting with the prefix are those from it up to the prefix with its last code point one higher.
        const end = prefixEnd(filter.sidPrefix);
        conditions.push(end === undefined ? 'sid >= ?' : 'sid >= ? AND sid < ?');
        values.push(filter.sidPrefix, ...(end === undefined ? [] : [end]));
      } else {
        // A UTF-16 file (a connection made elsewhere) orders differently: compare the start, counted in characters.
        conditions.push('substr(sid, 1, ?) = ?');
        values.push([...filter.sidPrefix].length, filter.sidPrefix);
      }
    }
    if (filter.search !== undefined && filter.search !== '') {
      if (schemaVersion < TASK_COLUMN_VERSION && !registered.has(db)) {
        db.function(TASK_CONTAINS, { deterministic: true }, (userdata, search) => (foldAsciiCase(storedTaskOfText(String(userdata))).includes(String(search)) ? 1 : 0));
        registered.add(db);
      }
      const search = foldAsciiCase(filter.search);
      conditions.push(searchCondition(schemaVersion));
      values.push(search, search, search);
    }
    return { clause: conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`, values };
  };
  return {
    list(options) {
      const { clause, values } = where(options);
      // LIMIT -1 is SQLite's "no limit" (a limit given is checked to be ≥ 0 first).
      return prepared(`SELECT ${columns} FROM controller_sessions${clause} ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?`).all(...values, options.limit ?? -1, options.offset ?? 0);
    },
    count(filter) {
      const { clause, values } = where(filter);
      const row = prepared(`SELECT COUNT(*) AS count FROM controller_sessions${clause}`).get(...values) as { count: number | bigint };
      return Number(row.count);
    },
  };
}

/**
 * The least text after every text that starts with `prefix`: the prefix
 * with its last code point one higher (past the surrogates; a last U+10FFFF
 * is dropped and the one before it raised), or undefined when every code
 * point is U+10FFFF (no text sorts after them all).
 */
export function prefixEnd(prefix: string): string | undefined {
  const points = [...prefix].map((char) => char.codePointAt(0) as number);
  while (points.length > 0) {
    const last = points.pop() as number;
    if (last < 0x10ffff) return String.fromCodePoint(...points, last === 0xd7ff ? 0xe000 : last + 1);
  }
  return undefined;
}
