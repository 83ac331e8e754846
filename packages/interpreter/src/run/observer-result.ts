/** What a host's observer returned: an async observer's rejection must not go unhandled (Node ends the process on one). */

/** Swallows the rejection of a promise an observer returned; anything else is left alone. */
export function ignoreRejection(returned: unknown): void {
  if (returned !== null && typeof returned === 'object' && typeof (returned as PromiseLike<unknown>).then === 'function') {
    (returned as PromiseLike<unknown>).then(undefined, () => undefined);
  }
}
