/**
 * The queries of the PostgreSQL store's `listSessions` and `countSessions`:
 * each filter of `ListSessionsOptions` is a condition in SQL, with the
 * meaning the controller's `sessionMatchesList` gives it (the same
 * conformance cases run against every store), so a page or a search reads
 * only what it returns, and a count no record.
 */
import { foldAsciiCase, type ListSessionsOptions, type SessionFilter } from '@askloop/controller';

/** A query's text and its values. */
export interface SessionQuery {
  readonly text: string;
  readonly values: unknown[];
}

/** The SQL and values listing the `record` column for `options` (checked before: `requireListOptions`). */
export function sessionListQuery(options: ListSessionsOptions): SessionQuery {
  const { text: where, values, at } = sessionWhere(options);
  // Newest first; of sessions created in the same millisecond, the later one first.
  let text = `SELECT record FROM askloop_sessions${where} ORDER BY created_at DESC, seq DESC`;
  if (options.limit !== undefined) text += ` LIMIT ${at(options.limit)}`;
  if (options.offset !== undefined && options.offset > 0) text += ` OFFSET ${at(options.offset)}`;
  return { text, values };
}

/** The SQL and values counting the sessions `filter` matches (checked before: `requireSessionFilter`), as `count`. */
export function sessionCountQuery(filter: SessionFilter): SessionQuery {
  const { text: where, values } = sessionWhere(filter);
  return { text: `SELECT count(*) AS count FROM askloop_sessions${where}`, values };
}

/** The WHERE clause of `filter` ('' for none), its values, and how to add one more value. */
function sessionWhere(filter: SessionFilter): SessionQuery & { readonly at: (value: unknown) => string } {
  const values: unknown[] = [];
  const at = (value: unknown): string => `$${values.push(value)}`;
  const conditions: string[] = [];
  if (filter.status !== undefined) conditions.push(`status = ${at(filter.status)}`);
  if (filter.parentSid !== undefined) conditions.push(`parent_sid = ${at(filter.parentSid)}`);
  if (filter.sidPrefix !== undefined) conditions.push(`starts_with(sid, ${at(filter.sidPrefix)})`);
  if (filter.search !== undefined && filter.search !== '') {
    const search = at(foldAsciiCase(filter.search));
    // lower() under the "C" collation folds the ASCII letters only, as foldAsciiCase does, whatever the database's
    // locale. The task is the row's `task` column (the controller's `storedTask`, written with the row).
    conditions.push(`(strpos(lower(sid COLLATE "C"), ${search}) > 0 OR strpos(lower(agent COLLATE "C"), ${search}) > 0 OR strpos(lower(task COLLATE "C"), ${search}) > 0)`);
  }
  return { text: conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`, values, at };
}
