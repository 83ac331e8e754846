/**
 * The SID a person typed, resolved the way `askloop show` resolves it: the
 * exact id, or the start of exactly one id (at least 4 characters), so a
 * copied prefix from `askloop sessions` opens the session.
 */
import type { TranscriptStore } from '@askloop/controller';
import { CliError, usageError } from '../cli-error.ts';
import { ambiguousPrefixMessage, matchSessionId, MIN_SID_PREFIX } from './match-session-id.ts';

/** The full id of the session `sid` names in `store`; LOOP_SESSION_NOT_FOUND or a usage error for an ambiguous prefix. */
export async function resolveSessionId(store: TranscriptStore, sid: string, dbPath: string): Promise<string> {
  const match = await matchSessionId(store, sid);
  if (match.kind === 'found') return match.session.sid;
  if (match.kind === 'ambiguous') throw usageError(ambiguousPrefixMessage(sid, match));
  const hint = match.tooShort ? `; give at least ${MIN_SID_PREFIX} characters of an id` : match.problem === undefined ? '' : `; a session id ${match.problem}`;
  // Quoted as JSON when it holds a control character, which would otherwise reach the terminal as itself.
  const shown = match.problem === undefined || sid.length === 0 ? `'${sid}'` : JSON.stringify(sid);
  throw CliError.fromLoopError({ code: 'LOOP_SESSION_NOT_FOUND', message: `no session ${shown} in ${dbPath}${hint}; askloop sessions lists them` });
}
