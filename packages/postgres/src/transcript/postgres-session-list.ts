/**
 * The query of the PostgreSQL store's `listSessions`: each filter of
 * `ListSessionsOptions` is a condition in SQL, with the meaning the
 * controller's `sessionMatchesList` gives it (the same conformance cases run
 * against every store), so a page or a search reads only what it returns.
 */
import { foldAsciiCase, type ListSessionsOptions } from '@askloop/controller';

/** The SQL and values listing the `record` column for `options` (checked before: `requireListOptions`). */
export function sessionListQuery(options: ListSessionsOptions): { readonly text: string; readonly values: unknown[] } {
  const values: unknown[] = [];
  const at = (value: unknown): string => `$${values.push(value)}`;
  const conditions: string[] = [];
  if (options.status !== undefined) conditions.push(`status = ${at(options.status)}`);
  if (options.parentSid !== undefined) conditions.push(`parent_sid = ${at(options.parentSid)}`);
  if (options.sidPrefix !== undefined) conditions.push(`starts_with(sid, ${at(options.sidPrefix)})`);
  if (options.search !== undefined && options.search !== '') {
    const search = at(foldAsciiCase(options.search));
    // lower() under the "C" collation folds the ASCII letters only, as foldAsciiCase does, whatever the database's
    // locale. The task is the row's `task` column (the controller's `storedTask`, written with the row).
    conditions.push(`(strpos(lower(sid COLLATE "C"), ${search}) > 0 OR strpos(lower(agent COLLATE "C"), ${search}) > 0 OR strpos(lower(task COLLATE "C"), ${search}) > 0)`);
  }
  // Newest first; of sessions created in the same millisecond, the later one first.
  let text = `SELECT record FROM askloop_sessions${conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`} ORDER BY created_at DESC, seq DESC`;
  if (options.limit !== undefined) text += ` LIMIT ${at(options.limit)}`;
  if (options.offset !== undefined && options.offset > 0) text += ` OFFSET ${at(options.offset)}`;
  return { text, values };
}
