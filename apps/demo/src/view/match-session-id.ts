/**
 * Which stored session a typed id names: the exact id, or the start of
 * exactly one id (at least {@link MIN_SID_PREFIX} characters), so a copied
 * prefix opens the session. Shared by the commands that take a SID and the
 * viewer's API, so both read a prefix the same way.
 */
import { countSessions, sessionIdProblem, type SessionRecord, type TranscriptStore } from '@askloop/controller';

/** The fewest characters a prefix needs: shorter ones would match too much to mean one session. */
export const MIN_SID_PREFIX = 4;

/** What {@link matchSessionId} found. */
export type SessionMatch =
  | { readonly kind: 'found'; readonly session: SessionRecord }
  | { readonly kind: 'ambiguous'; readonly count: number }
  | {
      readonly kind: 'none';
      readonly tooShort: boolean;
      /** Why `given` is no id a store holds (empty, a control character…): the stores refuse it, so it names no session. */
      readonly problem?: string;
    };

/**
 * The session `given` names in `store`: the session with that id, else the
 * one whose id starts with it (the store's `sidPrefix` query lists only
 * those). Two rows are enough to tell one from many; how many is counted,
 * not listed.
 */
export async function matchSessionId(store: TranscriptStore, given: string): Promise<SessionMatch> {
  const problem = sessionIdProblem(given);
  if (problem !== undefined) return { kind: 'none', tooShort: given.length < MIN_SID_PREFIX, problem };
  const exact = await store.getSession(given);
  if (exact !== undefined) return { kind: 'found', session: exact };
  if (given.length < MIN_SID_PREFIX) return { kind: 'none', tooShort: true };
  const matches = await store.listSessions({ sidPrefix: given, limit: 2 });
  if (matches.length === 1) return { kind: 'found', session: matches[0] as SessionRecord };
  return matches.length > 1 ? { kind: 'ambiguous', count: await countSessions(store, { sidPrefix: given }) } : { kind: 'none', tooShort: false };
}
