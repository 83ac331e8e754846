/**
 * One page of the viewer's session list: `GET /api/sessions?q=&status=&offset=`.
 * A store can hold more sessions than a page should carry, so the list comes
 * in pages of a bounded size, newest first, and a search (the start or any
 * part of an id, the agent, the task) or a status narrows it; together they
 * reach every session.
 */
import type { SessionStatus, TranscriptStore } from '@askloop/controller';
import { sessionSummary, type SessionSummary } from './session-summary.ts';

const STATUSES: readonly SessionStatus[] = ['running', 'paused', 'done', 'halted'];

/** The largest offset asked for: far past any store, and small enough that offset + page + 1 stays a safe integer for the store's `limit`. */
export const MAX_LIST_OFFSET = 1_000_000_000;

/** The longest search text: a search is a few words or an id. */
export const MAX_LIST_SEARCH = 200;

/** What a list request asks for. */
export interface SessionListQuery {
  /** Lower-cased search text; '' for none. */
  readonly q: string;
  readonly status: SessionStatus | undefined;
  readonly offset: number;
}

/** One page: the sessions, where it starts, and where the next starts (null on the last page). */
export interface SessionListPage {
  readonly sessions: readonly SessionSummary[];
  readonly offset: number;
  readonly pageSize: number;
  readonly next: number | null;
}

/** Reads `q`, `status` and `offset` from a request's query; a message for the first bad one. */
export function parseSessionListQuery(params: URLSearchParams): SessionListQuery | { readonly error: string } {
  const q = (params.get('q') ?? '').trim();
  if (q.length > MAX_LIST_SEARCH) return { error: `q: at most ${MAX_LIST_SEARCH} characters` };
  const status = params.get('status') ?? '';
  if (status !== '' && !STATUSES.includes(status as SessionStatus)) return { error: `status: one of ${STATUSES.join(', ')}` };
  const offsetText = params.get('offset') ?? '0';
  // Digits only: '1e3', '-1', '1.5' and ' 2' are refused, not coerced.
  const offset = /^\d{1,10}$/.test(offsetText) ? Number(offsetText) : Number.NaN;
  if (!(offset <= MAX_LIST_OFFSET)) return { error: `offset: a whole number from 0 to ${MAX_LIST_OFFSET}` };
  return { q: q.toLowerCase(), status: status === '' ? undefined : (status as SessionStatus), offset };
}

/**
 * The page `query` asks for, `pageSize` sessions at most (a positive safe
 * integer). Without a search the store lists only up to the end of the page
 * (and one more, to tell whether another page follows); a search lists every
 * session of the status and matches in memory, since the store has no text
 * query.
 */
export async function listSessionPage(store: TranscriptStore, query: SessionListQuery, pageSize: number): Promise<SessionListPage> {
  const end = query.offset + pageSize;
  // No `status` key at all for every status: a store may check the options it is given strictly.
  const byStatus = query.status === undefined ? {} : { status: query.status };
  const listed = await store.listSessions(query.q === '' ? { ...byStatus, limit: end + 1 } : byStatus);
  const summaries = listed.map(sessionSummary);
  const matching = query.q === '' ? summaries : summaries.filter((session) => [session.sid, session.agent, session.task ?? ''].some((text) => text.toLowerCase().includes(query.q)));
  return { sessions: matching.slice(query.offset, end), offset: query.offset, pageSize, next: matching.length > end ? end : null };
}
