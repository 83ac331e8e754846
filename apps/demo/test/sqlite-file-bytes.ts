/**
 * Every byte a SQLite sessions file holds on disk — the file and its
 * write-ahead log — as text, for tests that a secret never reaches the file
 * in any table, index or not-yet-checkpointed page.
 */
import { existsSync, readFileSync } from 'node:fs';

/** The bytes of `db` and `db-wal` (when there), decoded as Latin-1 so that no byte is lost. */
export function fileBytes(db: string): string {
  return [db, `${db}-wal`].filter(existsSync).map((file) => readFileSync(file).toString('latin1')).join('');
}
