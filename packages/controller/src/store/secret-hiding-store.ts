/**
 * The one door every write of the controller goes through: a turn record, a
 * session row, an approval, a reopened turn, a replay's scratch copy. Each is
 * stored with the known secrets hidden (`hide-secrets.ts`), whichever path
 * its text came by — a reply, a program's OUTPUT, a tool call's arguments, a
 * provider's or a plugin's message, a person's note, the task — so the
 * sessions file (or database) never holds one, nor does what is derived from
 * what is stored (the PostgreSQL decision log, the SQLite task column).
 */
import { hideRecordSecrets, hideSessionSecrets } from '../loop/hide-secrets.ts';
import type { Redact } from '../loop/tool-output-redaction.ts';
import type { TranscriptStore } from './transcript-store.ts';

/**
 * `store` whose writes hide the secrets `redactFor(sid)` knows for that session (undefined: none), read at each write
 * so a secret named later is hidden from then on. Reads are the store's own.
 */
export function hidingSecrets(store: TranscriptStore, redactFor: (sid: string) => Redact | undefined): TranscriptStore {
  return {
    ...store,
    // Async, so a `secrets()` that throws (LOOP_CONFIG_INVALID: nothing is stored) rejects as the store's own failures do.
    createSession: async (session) => store.createSession(hideSessionSecrets(session, redactFor(session.sid))),
    updateSession: async (session) => store.updateSession(hideSessionSecrets(session, redactFor(session.sid))),
    saveTurn: async (record, session) => {
      const redact = redactFor(record.sid);
      return store.saveTurn(hideRecordSecrets(record, redact), session === undefined ? undefined : hideSessionSecrets(session, session.sid === record.sid ? redact : redactFor(session.sid)));
    },
  };
}
