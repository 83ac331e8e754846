/**
 * Whether a SQLite file is another program's database: it holds tables, and
 * none of AskLoop's owners (`controller`, `tools`) recorded a migration in it.
 * `run` refuses to write AskLoop's tables into such a file, and the commands
 * that only read it (`sessions`, `show`, `resume`, `view`) say the same thing
 * in their own words, instead of the store's "FILE holds no AskLoop
 * transcript", which named the file a second time and no fix.
 */
import { loadSqlite } from '@askloop/tools';
import { existsSync, statSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';

/**
 * The tables of `path` when it is another program's SQLite database, sorted;
 * undefined when it is not one: missing, empty, no database at all (left to
 * the store to report), without tables, or AskLoop's.
 */
export function foreignDatabaseTables(path: string): readonly string[] | undefined {
  if (path === ':memory:' || !existsSync(path) || statSync(path).size === 0) return undefined;
  let database: DatabaseSync | undefined;
  try {
    database = new (loadSqlite().DatabaseSync)(path, { readOnly: true });
    const tables = (database.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((row) => row.name);
    const owned = tables.includes('schema_migrations') && database.prepare("SELECT 1 AS found FROM schema_migrations WHERE owner IN ('controller', 'tools') LIMIT 1").get() !== undefined;
    return tables.length === 0 || owned ? undefined : tables;
  } catch {
    return undefined;
  } finally {
    database?.close();
  }
}

/** The first tables of a foreign database, for a message: `a, b, c, … (9 tables)`. */
export function shownTables(tables: readonly string[]): string {
  return tables.slice(0, 3).join(', ') + (tables.length > 3 ? `, … (${tables.length} tables)` : '');
}
