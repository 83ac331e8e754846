/**
 * `listSessions` of the SQLite store as one query: each filter of
 * `ListSessionsOptions` is a condition in SQL, with the meaning
 * `sessionMatchesList` gives it, so a page or a search of a large file reads
 * only the rows it returns. A statement is prepared per set of filters used
 * (at most 32) and kept.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { JsonValue } from '@askloop/interpreter';
import { foldAsciiCase, sessionTask, taskContains } from './list-options.ts';
import type { ListSessionsOptions } from './transcript-store.ts';

// SQLite's lower() folds the ASCII letters only (no ICU in node:sqlite), as foldAsciiCase does; instr() finds a
// substring. The task is read in JavaScript by the very function the memory store uses (`taskContains`), so the
// stores agree on every USERDATA (nested past SQLite's JSON depth limit, a subject with U+0000 or a lone
// surrogate). A row is handed to it only when its USERDATA's JSON text holds the search as it is: JSON writes a
// task's characters as themselves but for `"`, `\`, controls and lone surrogates (a search holds no controls or
// lone surrogates; with `"`, `\` or U+FFFD, which stands for U+0000 and lone surrogates, every row is read).
const TASK_CONTAINS = 'askloop_task_contains';
const searchCondition = (prefilter: boolean): string =>
  `(instr(lower(sid), ?) > 0 OR instr(lower(agent), ?) > 0 OR (${prefilter ? 'instr(lower(userdata), ?) > 0 AND ' : ''}${TASK_CONTAINS}(userdata, ?)))`;

/** Lists the rows of `columns` for given options (checked before: `requireListOptions`). */
export function createSqliteSessionList(db: DatabaseSync, columns: string): (options: ListSessionsOptions) => unknown[] {
  const statements = new Map<string, StatementSync>();
  let registered = false;
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
      if (!registered) {
        db.function(TASK_CONTAINS, { deterministic: true }, (userdata, search) => (taskContains(sessionTask({ userdata: JSON.parse(String(userdata)) as JsonValue }), String(search)) ? 1 : 0));
        registered = true;
      }
      const search = foldAsciiCase(options.search);
      const prefilter = !/["\\\uFFFD]/.test(search);
      conditions.push(searchCondition(prefilter));
      values.push(search, search, ...(prefilter ? [search] : []), search);
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
