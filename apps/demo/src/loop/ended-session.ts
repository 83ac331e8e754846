/**
 * Whether a stored session has already ended for good, so `askloop resume`
 * has nothing to run: its last turn decided DONE, or HALT for any reason but
 * a Ctrl-C (`ERR_CANCELLED`) or a failed model call (`ERR_PROVIDER`), which
 * resume runs again. The controller's
 * `resume` would only return the same result, so the command says so
 * instead of reprinting the old outcome as if it had just happened.
 */
import { isResumableHalt, type TranscriptStore } from '@askloop/controller';
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
 * step, is paused, or stopped mid-turn). Read from the last turn, as the
 * controller decides, not only from the session row a crash can leave behind.
 */
export async function endedSession(store: TranscriptStore, sid: string): Promise<EndedSession | undefined> {
  const last = await store.lastTurn(sid);
  if (last === undefined) {
    // Halted before its first turn (a task that is not valid USERDATA): nothing will ever run. Only then is the row read.
    const decision = (await store.getSession(sid))?.lastDecision;
    return decision?.kind === 'HALT' ? { outcome: `HALT ${decision.reason}`, turns: 0 } : undefined;
  }
  if (last.phase !== 'decided' || last.decision === undefined) return undefined;
  const decision = last.decision;
  if (decision.kind === 'DONE') return { outcome: 'DONE', turns: last.turnIndex };
  if (decision.kind === 'HALT' && !isResumableHalt(decision.reason, last.failure)) {
    if (decision.reason !== 'ERR_PROVIDER') return { outcome: `HALT ${decision.reason}`, turns: last.turnIndex };
    // The reason alone would read as resumable (a failed model call is): say why this one is not.
    const final =
      last.failure?.kind === 'provider'
        ? `${last.failure.code}, which asking the model again would meet again`
        : 'a plugin halted it, not a failed model call';
    return { outcome: `HALT ${decision.reason}`, turns: last.turnIndex, final };
  }
  return undefined;
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
