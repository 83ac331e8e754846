/**
 * A session's agent is stored with it (`agentDefinition`), and a command that
 * reads the session from the store — `resume`, `approve`, `deny`, `replay`,
 * `worker`, `show`, `sessions`, `view` — never read the file the agent came
 * from: the variables its `${NAME}` references name (an instruction that
 * mentions `${MY_SERVICE_CRED}`, say) hold secrets for that command too.
 * Every session such a command reads passes through here: its agent's
 * references are noted on the command's `io` (`noteSecretNames`), so the
 * redactors built from `knownSecretNames` — what the command prints and
 * serves, and the loop's `secrets()` — hide their values from then on.
 */
import type { SessionRecord, TranscriptStore } from '@askloop/controller';
import { referencedVariables } from '../config/config-secret-names.ts';
import type { CommandIo } from '../io.ts';
import { noteSecretNames } from '../known-secret-names.ts';

/** Notes the references of `session`'s stored agent (none when it is undefined) on `io`; returns it. */
function noted<T extends SessionRecord | undefined>(io: Pick<CommandIo, 'secretNames'>, session: T): T {
  if (session !== undefined) noteSecretNames(io, referencedVariables(session.agentDefinition));
  return session;
}

/**
 * `store` whose session reads (`getSession`, `listSessions`) note the `${NAME}` references of each session's stored
 * agent on `io` before the session reaches anyone: the command itself, or the controller loading the agent to run it.
 */
export function notingStoredAgents(store: TranscriptStore, io: Pick<CommandIo, 'secretNames'>): TranscriptStore {
  return {
    ...store,
    getSession: async (sid) => noted(io, await store.getSession(sid)),
    listSessions: async (options) => {
      const sessions = await store.listSessions(options);
      for (const session of sessions) noted(io, session);
      return sessions;
    },
  };
}
