/**
 * The options a session's run was given that a continuation needs again
 * (`--config`, `--script`, `--fs-root`, `--mcp-config`), kept with the
 * session in its sessions file, so the next steps that `resume` prints — it
 * may be given only `--db` — still carry them, as `run`'s own did. Absolute
 * paths; never `--db` (the command that reads them was given it, or found the
 * file by default) and never a secret. SQLite sessions files only: on
 * PostgreSQL the hint carries what the command was given.
 */
import { loadSqlite } from '@askloop/tools';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { ContinueWith } from './continue-hint.ts';

/** The CLI's own table; the controller's tables are `controller_…`. */
const TABLE = 'askloop_cli_continue';

/** The stored fields: paths a continuation needs again. */
type Kept = Pick<ContinueWith, 'config' | 'script' | 'fsRoot' | 'mcpConfig'>;
const KEPT = ['config', 'script', 'fsRoot', 'mcpConfig'] as const;

/** The kept options of `given`, absolute against `cwd`. */
function keptOf(given: ContinueWith, cwd: string): Kept {
  const kept: Record<string, string> = {};
  for (const key of KEPT) {
    const value = given[key];
    if (value !== undefined) kept[key] = resolve(cwd, value);
  }
  return kept;
}

/**
 * Records `given` for session `sid` in the sessions file `dbPath` (one row
 * per session, replaced). Best effort: a hint is a convenience, so a file
 * that cannot take the row (locked, read-only) leaves the command's outcome
 * as it was, and the hint carries what the command was given. A file that
 * is not there is left so.
 */
export function saveContinueWith(dbPath: string, sid: string, given: ContinueWith, cwd: string): void {
  // Never made here: a sessions file removed while the run went on would come back holding only this table, which
  // every command then refuses as another program's database.
  if (!existsSync(dbPath)) return;
  let database: DatabaseSync | undefined;
  try {
    database = new (loadSqlite().DatabaseSync)(dbPath, { timeout: 5000 });
    database.exec(`CREATE TABLE IF NOT EXISTS ${TABLE} (sid TEXT PRIMARY KEY, options TEXT NOT NULL)`);
    database.prepare(`INSERT OR REPLACE INTO ${TABLE} (sid, options) VALUES (?, ?)`).run(sid, JSON.stringify(keptOf(given, cwd)));
  } catch {
    // See above: the outcome stands without it.
  } finally {
    database?.close();
  }
}

/** What the run of `sid` recorded (nothing when it recorded none, or the file has no such table). */
export function loadContinueWith(dbPath: string, sid: string): Kept {
  let database: DatabaseSync | undefined;
  try {
    database = new (loadSqlite().DatabaseSync)(dbPath, { readOnly: true, timeout: 5000 });
    const row = database.prepare(`SELECT options FROM ${TABLE} WHERE sid = ?`).get(sid) as { options: string } | undefined;
    if (row === undefined) return {};
    const parsed = JSON.parse(row.options) as Record<string, unknown>;
    const kept: Record<string, string> = {};
    for (const key of KEPT) if (typeof parsed[key] === 'string') kept[key] = parsed[key];
    return kept;
  } catch {
    // No table yet (a file written before this existed): nothing was recorded.
    return {};
  } finally {
    database?.close();
  }
}

/** The options to print: each one the command was given, else the one the run recorded. */
export function mergeContinueWith(given: ContinueWith, recorded: Kept): ContinueWith {
  return {
    db: given.db,
    config: given.config ?? recorded.config,
    script: given.script ?? recorded.script,
    fsRoot: given.fsRoot ?? recorded.fsRoot,
    mcpConfig: given.mcpConfig ?? recorded.mcpConfig,
  };
}

/** Removes the row of `sid` (a run recorded before it started, which never did); best effort, as {@link saveContinueWith}. */
export function forgetContinueWith(dbPath: string, sid: string): void {
  if (!existsSync(dbPath)) return;
  let database: DatabaseSync | undefined;
  try {
    database = new (loadSqlite().DatabaseSync)(dbPath, { timeout: 5000 });
    database.prepare(`DELETE FROM ${TABLE} WHERE sid = ?`).run(sid);
  } catch {
    // No table yet, or a locked file: a stray row only names options for a session that does not exist.
  } finally {
    database?.close();
  }
}
