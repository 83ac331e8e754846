/**
 * One signal following another without `AbortSignal.any`: a composite signal
 * that has an abort listener and never aborts is kept alive by Node for as
 * long as one of its sources lives, and with it everything its listeners hold
 * (at 10,000 sessions at once, a step's lease signal joined this way held
 * about 100 MiB more at the peak, measured). A listener that is removed when
 * the follower is done leaves nothing behind. Used by each attempt of a model
 * call (`attempt-signal.ts`) and by the controller's loop.
 */

/** Aborts `follower` when `source` aborts (at once when it already has), with its reason; returns how to stop following. */
export function followSignal(source: AbortSignal | undefined, follower: AbortController): () => void {
  if (source === undefined) return () => {};
  if (source.aborted) {
    follower.abort(source.reason);
    return () => {};
  }
  const onAbort = (): void => follower.abort(source.reason);
  source.addEventListener('abort', onAbort, { once: true });
  return () => source.removeEventListener('abort', onAbort);
}
