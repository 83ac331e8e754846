/**
 * The listing of the tool sources (MCP servers) that `run`, `resume`,
 * `approve` and `deny` make before they store or change anything, given up
 * when the caller's signal aborts: a server slow to start must not hold a
 * Ctrl-C for the whole of its start timeout. Nothing was stored or changed
 * then, so the call throws `LOOP_CANCELLED` rather than halting a session.
 * The start goes on in the background; closing the loop closes the sources,
 * which stops it.
 */
import { LoopError } from '../errors/loop-error.ts';
import { giveUpOnAbort } from '../session/give-up-on-abort.ts';

/** Resolves with what `list()` does (the registry listed), or throws `LOOP_CANCELLED` (saying `nothingDone`) as soon as `signal` aborts, or at once when it has. */
export async function listToolSourcesFirst<T>(list: () => Promise<T>, signal: AbortSignal | undefined, nothingDone: string): Promise<T> {
  const cancelled = () => new LoopError({ code: 'LOOP_CANCELLED', message: `cancelled while the tool sources (MCP servers) started; ${nothingDone}` });
  // Aborted already: not even a start.
  if (signal?.aborted === true) throw cancelled();
  const listing = list();
  return signal === undefined ? listing : giveUpOnAbort(listing, signal, cancelled);
}
