/**
 * The options of `listSessions` and `countSessions`, checked by every store
 * in the same words, and what each filter means, so the memory, SQLite and
 * PostgreSQL stores list and count the same sessions for the same options. Without shared checks the
 * stores differed: a negative limit made the memory store drop the oldest
 * sessions (`slice(0, -n)`), SQLite read `-1` as "no limit" and PostgreSQL
 * refused it; a fraction or NaN failed differently again.
 */
import { LoopError } from '../errors/loop-error.ts';
import { characterProblem, quotedArgument, sessionIdProblem } from './store-keys.ts';
import type { ListSessionsOptions, SessionFilter, SessionRecord } from './transcript-store.ts';

/** Every filter of a session list or count. */
const FILTER_KEYS = ['status', 'parentSid', 'sidPrefix', 'search'] as const satisfies readonly (keyof SessionFilter)[];
/** Every option `listSessions` takes: the filters and the page. */
const LIST_OPTION_KEYS = [...FILTER_KEYS, 'offset', 'limit'] as const satisfies readonly (keyof ListSessionsOptions)[];

/** The longest `search` text, in UTF-16 code units: a few words or an id. */
export const MAX_LIST_SEARCH_LENGTH = 1000;

type ListCall = 'listSessions' | 'countSessions';

const invalid = (message: string, call: ListCall = 'listSessions'): LoopError => new LoopError({ code: 'LOOP_ARGUMENT_INVALID', message: `${call}: ${message}` });

const shown = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' || value === null ? quotedArgument(value) : typeof value);

/**
 * Throws `LOOP_ARGUMENT_INVALID` unless `limit` is undefined (every session)
 * or a whole number from 0 (no session) to `Number.MAX_SAFE_INTEGER`.
 */
export function requireListLimit(limit: unknown): asserts limit is number | undefined {
  requireCount('limit', limit, 'or left out for every session');
}

/**
 * Throws `LOOP_ARGUMENT_INVALID` naming the first option of `options` no
 * store can take: `limit` and `offset` must be whole numbers from 0 to
 * `Number.MAX_SAFE_INTEGER`; the filters as {@link requireSessionFilter}
 * checks them.
 */
export function requireListOptions(options: ListSessionsOptions): void {
  requireOptions('listSessions', options, LIST_OPTION_KEYS);
  requireCount('limit', options.limit, 'or left out for every session');
  requireCount('offset', options.offset, 'or left out for none');
}

/**
 * Throws `LOOP_ARGUMENT_INVALID`, naming `countSessions`, for the first
 * filter no store can take: `parentSid` and `sidPrefix` must be session ids
 * (`sessionIdProblem`); `search` a string of at most
 * {@link MAX_LIST_SEARCH_LENGTH} characters, well-formed, with no control
 * characters; `status` one of the four statuses; and no other key — `offset`
 * and `limit` included, which page a list and mean nothing to a count.
 */
export function requireSessionFilter(filter: SessionFilter): void {
  requireOptions('countSessions', filter, FILTER_KEYS);
}

function requireOptions(call: ListCall, options: SessionFilter, keys: readonly string[]): void {
  if (options === null || typeof options !== 'object') throw invalid(`the options must be an object, got ${shown(options)}`, call);
  // A misspelt filter (`q`, `prefix`) would otherwise take every session as if it were not there.
  const unknown = Object.keys(options).find((key) => !keys.includes(key));
  if (unknown !== undefined) {
    const paging = call === 'countSessions' && (unknown === 'offset' || unknown === 'limit') ? ' (a count takes every match: offset and limit page listSessions)' : '';
    throw invalid(`unknown option ${JSON.stringify(unknown)}${paging}; the options are ${keys.join(', ')}`, call);
  }
  if (options.status !== undefined && !['running', 'paused', 'done', 'halted'].includes(options.status)) throw invalid(`status must be running, paused, done or halted, got ${shown(options.status)}`, call);
  for (const key of ['parentSid', 'sidPrefix'] as const) {
    const value = options[key];
    const problem = value === undefined ? undefined : sessionIdProblem(value);
    if (problem !== undefined) throw invalid(`${key} ${shown(value)} ${problem}`, call);
  }
  const search = options.search;
  if (search === undefined) return;
  if (typeof search !== 'string') throw invalid(`search must be a string, got ${shown(search)}`, call);
  if (search.length > MAX_LIST_SEARCH_LENGTH) throw invalid(`search must be at most ${MAX_LIST_SEARCH_LENGTH} characters, got ${search.length}`, call);
  // PostgreSQL's `text` cannot hold U+0000 and turns a lone surrogate into U+FFFD: refused here for every store.
  const problem = characterProblem(search);
  if (problem !== undefined) throw invalid(`search ${shown(search)} ${problem}`, call);
}

function requireCount(key: 'limit' | 'offset', value: unknown, absent: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw invalid(`${key} must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, ${absent}; got ${typeof value === 'number' ? String(value) : typeof value}`);
  }
}

/**
 * `text` with the ASCII letters A–Z lower-cased and every other character
 * as it is: how `search` ignores case in every store (SQLite's `lower()` and
 * PostgreSQL's under the "C" collation fold these letters only).
 */
export function foldAsciiCase(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * `text` as a search reads it: U+0000 and lone surrogates as U+FFFD, which
 * is what PostgreSQL's text makes of them (no search can hold either).
 */
export function searchableText(text: string): string {
  return text.replace(UNSEARCHABLE, '\uFFFD');
}

// U+0000, a high surrogate not followed by a low one, or a low one not preceded by a high one.
const UNSEARCHABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The task a session was given: its USERDATA's `subject` when that is a string. */
export function sessionTask(session: Pick<SessionRecord, 'userdata'>): string | undefined {
  const userdata = session.userdata;
  const subject = userdata !== null && typeof userdata === 'object' && !Array.isArray(userdata) ? userdata.subject : undefined;
  return typeof subject === 'string' ? subject : undefined;
}

/**
 * Whether `session` passes the filters of `options` (all but the order,
 * `offset` and `limit`): the memory store's filter, and the meaning each
 * store's query has. `search` matches when the session id, the agent's name
 * or the task (the last two, {@link sessionTask} for the task, read by
 * {@link searchableText}, as a database keeps them) contains
 * it, ASCII letters in either case ({@link foldAsciiCase}); '' matches every
 * session.
 */
export function sessionMatchesList(session: SessionRecord, options: SessionFilter): boolean {
  if (options.status !== undefined && session.status !== options.status) return false;
  if (options.parentSid !== undefined && session.parentSid !== options.parentSid) return false;
  if (options.sidPrefix !== undefined && !session.sid.startsWith(options.sidPrefix)) return false;
  if (options.search === undefined || options.search === '') return true;
  const search = foldAsciiCase(options.search);
  // The stored task, as the database stores search it ('' for none, which no search finds).
  // The agent's name as a database stores it too: a lone surrogate in it is U+FFFD there (session ids cannot hold one).
  return [session.sid, searchableText(session.agent), storedTask(session.userdata)].some((text) => foldAsciiCase(text).includes(search));
}

/**
 * The task a database store keeps beside a session for its searches: the
 * {@link sessionTask} as {@link searchableText} reads it, or '' when it has
 * none (no search finds ''). Computed when the session is written, so a
 * search reads that column (the subject only) whatever else USERDATA holds.
 */
export function storedTask(userdata: SessionRecord['userdata']): string {
  const task = sessionTask({ userdata });
  return task === undefined ? '' : searchableText(task);
}

/** The {@link storedTask} of a row's USERDATA JSON text; '' when the text is not JSON (a row edited by hand). */
export function storedTaskOfText(userdata: string): string {
  let parsed: SessionRecord['userdata'];
  try {
    parsed = JSON.parse(userdata) as SessionRecord['userdata'];
  } catch {
    return '';
  }
  return storedTask(parsed);
}
