/**
 * The SID a person typed, resolved the way `askloop show` resolves it: the
 * exact id, or the start of exactly one id (at least 4 characters), so a
 * copied prefix from `askloop sessions` opens the session.
 */
import type { TranscriptStore } from '@askloop/controller';
import { CliError, usageError } from '../cli-error.ts';

/** The full id of the session `sid` names in `store`; LOOP_SESSION_NOT_FOUND or a usage error for an ambiguous prefix. */
export async function resolveSessionId(store: TranscriptStore, sid: string, dbPath: string): Promise<string> {
  if ((await store.getSession(sid)) !== undefined) return sid;
  const matches = sid.length < 4 ? [] : (await store.listSessions()).filter((session) => session.sid.startsWith(sid));
  if (matches.length === 1) return (matches[0] as { sid: string }).sid;
  if (matches.length > 1) throw usageError(`'${sid}' is the start of ${matches.length} session ids; give more of it`);
  const hint = sid.length < 4 ? '; give at least 4 characters of an id' : '';
  throw CliError.fromLoopError({ code: 'LOOP_SESSION_NOT_FOUND', message: `no session '${sid}' in ${dbPath}${hint}; askloop sessions lists them` });
}
