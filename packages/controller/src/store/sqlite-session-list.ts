/**
 * `listSessions` of the SQLite store as one query: each filter of
 * `ListSessionsOptions` is a condition in SQL, with the meaning
 * `sessionMatchesList` gives it, so a page or a search of a large file reads
 * only the rows it returns. A statement is prepared per set of filters used
 * (at most 16) and kept.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { foldAsciiCase } from './list-options.ts';
import type { ListSessionsOptions } from './transcript-store.ts';

// SQLite's lower() folds the ASCII letters only (no ICU in node:sqlite), as foldAsciiCase does; instr() finds a
// substring. The task is USERDATA's `subject` when that is a string (json_type 'text').
const SEARCH =
  "(instr(lower(sid), ?) > 0 OR instr(lower(agent), ?) > 0 OR (json_type(userdata, '$.subject') = 'text' AND instr(lower(json_extract(userdata, '$.subject')), ?) > 0))";

/** Lists the rows of `columns` for given options (checked before: `requireListOptions`). */
export function createSqliteSessionList(db: DatabaseSync, columns: string): (options: ListSessionsOptions) => unknown[] {
  const statements = new Map<string, StatementSync>();
  return (options) => {
    const conditions: string[] = [];
    const values: SQLInputValue[] = [];
    if (options.status !== undefined) {
      conditions.push('status = ?');
      values.push(options.status);
    }
    if (options.parentSid !== undefined) {
      conditions.push('parent_sid = ?');
      values.push(options.parentSid);
    }
    if (options.sidPrefix !== undefined) {
      // substr counts characters (code points), not UTF-16 units.
      conditions.push('substr(sid, 1, ?) = ?');
      values.push([...options.sidPrefix].length, options.sidPrefix);
    }
    if (options.search !== undefined && options.search !== '') {
      const search = foldAsciiCase(options.search);
      conditions.push(SEARCH);
      values.push(search, search, search);
    }
    const sql = `SELECT ${columns} FROM controller_sessions${conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`} ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?`;
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    // LIMIT -1 is SQLite's "no limit" (a limit given is checked to be ≥ 0 first).
    return statement.all(...values, options.limit ?? -1, options.offset ?? 0);
  };
}
