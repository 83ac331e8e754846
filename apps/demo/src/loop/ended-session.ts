/**
 * Whether a stored session has already ended for good, so `askloop resume`
 * has nothing to run: its last turn decided DONE, or HALT for any reason but
 * a Ctrl-C (`ERR_CANCELLED`) or a failed model call (`ERR_PROVIDER`), which
 * resume runs again. The controller's
 * `resume` would only return the same result, so the command says so
 * instead of reprinting the old outcome as if it had just happened.
 */
import { sessionEnd, type TranscriptStore } from '@askloop/controller';
import { CliError } from '../cli-error.ts';
import { terminalSafe } from '../progress/terminal-safe.ts';

/** How an ended session ended, for the message. */
export interface EndedSession {
  /** `DONE`, or `HALT` and its reason. */
  readonly outcome: string;
  readonly turns: number;
  /** Why an `ERR_PROVIDER` halt is final: the failed call's code (`PROVIDER_BAD_REQUEST`), or that no model call failed. */
  readonly final?: string;
}

/**
 * The end of `sid` when it cannot be resumed, else undefined (it can take a
 * step, is paused, or stopped mid-turn): the controller's rule.
 */
export async function endedSession(store: TranscriptStore, sid: string): Promise<EndedSession | undefined> {
  const end = await sessionEnd(store, sid);
  if (end === undefined) return undefined;
  const { decision, turns, failure } = end;
  if (decision.kind === 'DONE') return { outcome: 'DONE', turns };
  if (decision.reason !== 'ERR_PROVIDER') return { outcome: `HALT ${decision.reason}`, turns };
  // The reason alone would read as resumable (a failed model call is): say why this one is not.
  const final = failure?.kind === 'provider' ? `${failure.code}, which asking the model again would meet again` : 'a plugin halted it, not a failed model call';
  return { outcome: `HALT ${decision.reason}`, turns, final };
}

/**
 * The error `askloop resume` gives for an ended session: `CLI_SESSION_ENDED`, exit 1 (the loop could not continue).
 * `where` is the ` --db …` the suggested `askloop show` needs to find the same store (shell-quoted; empty for the default).
 */
export function sessionEndedError(sid: string, ended: EndedSession, where = ''): CliError {
  const turns = `${ended.turns} turn${ended.turns === 1 ? '' : 's'}`;
  return new CliError(
    'CLI_SESSION_ENDED',
    ended.final === undefined
      ? `session ${sid} already ended (${terminalSafe(ended.outcome)} after ${turns}); nothing ran. Only a session stopped by Ctrl-C, a crash or a failed model call (ERR_PROVIDER) can be resumed (a paused one: approve or deny it); see it with askloop show ${sid}${where}`
      : `session ${sid} already ended (${terminalSafe(ended.outcome)} after ${turns}: ${terminalSafe(ended.final)}); nothing ran. A failed model call is resumed when asking again can help (a server error, a timeout, a rate limit), not this one; see it with askloop show ${sid}${where}, and start a new session with askloop run`,
  );
}
