/**
 * The SID a person typed, resolved the way `askloop show` resolves it: the
 * exact id, or the start of exactly one id (at least 4 characters), so a
 * copied prefix from `askloop sessions` opens the session.
 */
import { sessionIdProblem, type TranscriptStore } from '@askloop/controller';
import { CliError, usageError } from '../cli-error.ts';

/** The full id of the session `sid` names in `store`; LOOP_SESSION_NOT_FOUND or a usage error for an ambiguous prefix. */
export async function resolveSessionId(store: TranscriptStore, sid: string, dbPath: string): Promise<string> {
  // The stores refuse an id none of them holds (empty, a control character): it names no session, as an unknown one does.
  const problem = sessionIdProblem(sid);
  if (problem === undefined && (await store.getSession(sid)) !== undefined) return sid;
  const matches = sid.length < 4 ? [] : (await store.listSessions()).filter((session) => session.sid.startsWith(sid));
  if (matches.length === 1) return (matches[0] as { sid: string }).sid;
  if (matches.length > 1) throw usageError(`'${sid}' is the start of ${matches.length} session ids; give more of it`);
  const hint = sid.length < 4 ? '; give at least 4 characters of an id' : problem === undefined ? '' : `; a session id ${problem}`;
  // Quoted as JSON when it holds a control character, which would otherwise reach the terminal as itself.
  const shown = problem === undefined || sid.length === 0 ? `'${sid}'` : JSON.stringify(sid);
  throw CliError.fromLoopError({ code: 'LOOP_SESSION_NOT_FOUND', message: `no session ${shown} in ${dbPath}${hint}; askloop sessions lists them` });
}
