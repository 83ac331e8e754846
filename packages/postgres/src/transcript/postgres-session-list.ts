/**
 * The query of the PostgreSQL store's `listSessions`: each filter of
 * `ListSessionsOptions` is a condition in SQL, with the meaning the
 * controller's `sessionMatchesList` gives it (the same conformance cases run
 * against every store), so a page or a search reads only what it returns.
 */
import { foldAsciiCase, type ListSessionsOptions } from '@askloop/controller';

// lower() under the "C" collation folds the ASCII letters only, as foldAsciiCase does, whatever the database's
// locale. The task is USERDATA's `subject` when that is a JSON string. PostgreSQL's json refuses a lone surrogate
// escape (`\ud800`, which JSON.stringify writes for one) and cannot turn `\u0000` into text, anywhere in a record:
// both escapes become `\ufffd` first, as `searchableText` reads them in the other stores. So that the text `\u0000`
// after an escaped backslash (`\\u0000`, a task that says so) is left alone, escaped backslashes are written as
// `\u005c` before (the same character to JSON). The patterns go as parameters, so no server setting changes them.
const ESCAPED_BACKSLASH = '\\\\';
const BACKSLASH_ESCAPE = '\\u005c';
const UNSEARCHABLE_ESCAPE = '\\\\u(0000|[dD][89a-fA-F][0-9a-fA-F]{2})';
const REPLACEMENT_ESCAPE = '\\\\ufffd';
const TASK = `CASE WHEN json_typeof(task.subject) = 'string' THEN task.subject #>> '{}' END`;

/** The SQL and values listing the `record` column for `options` (checked before: `requireListOptions`). */
export function sessionListQuery(options: ListSessionsOptions): { readonly text: string; readonly values: unknown[] } {
  const values: unknown[] = [];
  const at = (value: unknown): string => `$${values.push(value)}`;
  const conditions: string[] = [];
  let from = 'askloop_sessions';
  if (options.status !== undefined) conditions.push(`status = ${at(options.status)}`);
  if (options.parentSid !== undefined) conditions.push(`parent_sid = ${at(options.parentSid)}`);
  if (options.sidPrefix !== undefined) conditions.push(`starts_with(sid, ${at(options.sidPrefix)})`);
  if (options.search !== undefined && options.search !== '') {
    const search = at(foldAsciiCase(options.search));
    const record = `regexp_replace(replace(record, ${at(ESCAPED_BACKSLASH)}, ${at(BACKSLASH_ESCAPE)}), ${at(UNSEARCHABLE_ESCAPE)}, ${at(REPLACEMENT_ESCAPE)}, 'g')`;
    from += `, LATERAL (SELECT ${record}::json -> 'userdata' -> 'subject' AS subject) AS task`;
    conditions.push(`(strpos(lower(sid COLLATE "C"), ${search}) > 0 OR strpos(lower(agent COLLATE "C"), ${search}) > 0 OR strpos(lower((${TASK}) COLLATE "C"), ${search}) > 0)`);
  }
  // Newest first; of sessions created in the same millisecond, the later one first.
  let text = `SELECT record FROM ${from}${conditions.length === 0 ? '' : ` WHERE ${conditions.join(' AND ')}`} ORDER BY created_at DESC, seq DESC`;
  if (options.limit !== undefined) text += ` LIMIT ${at(options.limit)}`;
  if (options.offset !== undefined && options.offset > 0) text += ` OFFSET ${at(options.offset)}`;
  return { text, values };
}
