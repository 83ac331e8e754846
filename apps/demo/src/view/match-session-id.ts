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
  | {
      readonly kind: 'ambiguous';
      readonly count: number;
      /** The first few ids that start so (newest first), for a person to pick from. */
      readonly examples: readonly string[];
    }
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
 * and the first few are named for a person to pick from.
 */
export async function matchSessionId(store: TranscriptStore, given: string): Promise<SessionMatch> {
  const problem = sessionIdProblem(given);
  if (problem !== undefined) return { kind: 'none', tooShort: given.length < MIN_SID_PREFIX, problem };
  const exact = await store.getSession(given);
  if (exact !== undefined) return { kind: 'found', session: exact };
  if (given.length < MIN_SID_PREFIX) return { kind: 'none', tooShort: true };
  const matches = await store.listSessions({ sidPrefix: given, limit: 2 });
  if (matches.length === 1) return { kind: 'found', session: matches[0] as SessionRecord };
  if (matches.length > 1) {
    const examples = (await store.listSessions({ sidPrefix: given, limit: AMBIGUOUS_EXAMPLES })).map((session) => session.sid);
    return { kind: 'ambiguous', count: await countSessions(store, { sidPrefix: given }), examples };
  }
  // Ids are lower-case (UUIDs): `A8F7`, typed from a screen or a ticket, names `a8f7…` as a search for it finds it.
  if (given !== given.toLowerCase()) return matchSessionId(store, given.toLowerCase());
  return { kind: 'none', tooShort: false };
}

/** How many of the ids an ambiguous prefix matches are named. */
const AMBIGUOUS_EXAMPLES = 5;

/**
 * What to say of a `given` start several ids share: how many, the first few
 * of them (newest first) and how many more, and what to do. One wording for
 * the commands that take a SID and the viewer's API, so a person picks the
 * id from the same list wherever they typed the start.
 */
export function ambiguousPrefixMessage(given: string, match: { readonly count: number; readonly examples: readonly string[] }): string {
  const more = match.count > match.examples.length ? `, and ${match.count - match.examples.length} more` : '';
  return `'${given}' is the start of ${match.count} session ids (${match.examples.join(', ')}${more}); give more of it`;
}
