/**
 * One page of the viewer's session list: `GET /api/sessions?q=&status=&offset=`.
 * A store can hold more sessions than a page should carry, so the list comes
 * in pages of a bounded size, newest first, and a search (any part of an
 * id, the agent, the task; ASCII letters in either case) or a status
 * narrows it; together they reach every session.
 */
import { characterProblem, sessionMatchesList, type SessionRecord, type SessionStatus, type TranscriptStore } from '@askloop/controller';
import { sessionSummary, type SessionSummary } from './session-summary.ts';

const STATUSES: readonly SessionStatus[] = ['running', 'paused', 'done', 'halted'];

/** The largest offset asked for: far past any store. */
export const MAX_LIST_OFFSET = 1_000_000_000;

/** The longest search text: a search is a few words or an id. */
export const MAX_LIST_SEARCH = 200;

/** What a list request asks for. */
export interface SessionListQuery {
  /** The search text, trimmed; '' for none. */
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
  // The stores refuse these in a search (none can be typed in the search box, but pasted text may hold a tab).
  const problem = characterProblem(q);
  if (problem !== undefined) return { error: `q: ${problem}` };
  const status = params.get('status') ?? '';
  if (status !== '' && !STATUSES.includes(status as SessionStatus)) return { error: `status: one of ${STATUSES.join(', ')}` };
  const offsetText = params.get('offset') ?? '0';
  // Digits only: '1e3', '-1', '1.5' and ' 2' are refused, not coerced.
  const offset = /^\d{1,10}$/.test(offsetText) ? Number(offsetText) : Number.NaN;
  if (!(offset <= MAX_LIST_OFFSET)) return { error: `offset: a whole number from 0 to ${MAX_LIST_OFFSET}` };
  return { q, status: status === '' ? undefined : (status as SessionStatus), offset };
}

/**
 * The page `query` asks for, `pageSize` sessions at most (a positive safe
 * integer). The store does the search, the status filter and the paging
 * (`listSessions` with `search`, `offset` and one more than a page, to tell
 * whether another page follows): a page without a search reads its own
 * rows by an index (walking past the rows `offset` skips), and a search
 * reads each session's id, agent and task in the store, never every whole
 * session here. With `redact` (the viewer's), a session the search found only
 * in text the viewer shows redacted is left out of the page: else searching
 * for the start of a key, a character more each time, would tell it whole.
 */
export async function listSessionPage(store: TranscriptStore, query: SessionListQuery, pageSize: number, redact?: (value: unknown) => unknown): Promise<SessionListPage> {
  // No key at all for a filter not asked for: a store may check the options it is given strictly.
  const listed = await store.listSessions({
    ...(query.status === undefined ? {} : { status: query.status }),
    ...(query.q === '' ? {} : { search: query.q }),
    offset: query.offset,
    limit: pageSize + 1,
  });
  const end = query.offset + pageSize;
  const page = listed.slice(0, pageSize);
  // The paging stays the store's (a page may then hold fewer sessions): the next page starts where the store's does.
  const shown = query.q === '' || redact === undefined ? page : page.filter((session) => matchesRedacted(session, query.q, redact));
  return { sessions: shown.map(sessionSummary), offset: query.offset, pageSize, next: listed.length > pageSize ? end : null };
}

/** Whether `search` still finds `session` once its agent and task are redacted as the viewer shows them. */
function matchesRedacted(session: SessionRecord, search: string, redact: (value: unknown) => unknown): boolean {
  const shown = { ...session, agent: redact(session.agent) as string, userdata: redact(session.userdata) as SessionRecord['userdata'] };
  return sessionMatchesList(shown, { search });
}
