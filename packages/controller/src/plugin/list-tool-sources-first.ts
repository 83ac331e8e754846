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

/** Awaits `list()`, or throws `LOOP_CANCELLED` (saying `nothingDone`) as soon as `signal` aborts, or at once when it has. */
export async function listToolSourcesFirst(list: () => Promise<unknown>, signal: AbortSignal | undefined, nothingDone: string): Promise<void> {
  const cancelled = () => new LoopError({ code: 'LOOP_CANCELLED', message: `cancelled while the tool sources (MCP servers) started; ${nothingDone}` });
  if (signal?.aborted === true) throw cancelled();
  const listing = list();
  if (signal === undefined) {
    await listing;
    return;
  }
  // A listing that fails after the abort was answered has no one left to hear it.
  listing.catch(() => {});
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => reject(cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([listing, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort as () => void);
  }
}
