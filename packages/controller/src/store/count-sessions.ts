/**
 * How many sessions a filter matches, from any store: its own count when it
 * has one (a `COUNT(*)` in the database stores, which reads no record), else
 * the length of its list. A command showing "50 of 10,000" would otherwise
 * read all 10,000 sessions to print one number.
 */
import { requireSessionFilter } from './list-options.ts';
import type { SessionFilter, TranscriptStore } from './transcript-store.ts';

/**
 * The number of sessions in `store` that `filter` matches (every session
 * when it is empty). Refuses a filter no store can take, `offset` and
 * `limit` included, with `LOOP_ARGUMENT_INVALID`, whichever way it counts.
 */
export async function countSessions(store: Pick<TranscriptStore, 'listSessions' | 'countSessions'>, filter: SessionFilter = {}): Promise<number> {
  requireSessionFilter(filter);
  if (store.countSessions !== undefined) return store.countSessions(filter);
  return (await store.listSessions(filter)).length;
}
