/**
 * Lets a caller stop waiting for work it cannot stop: `work` goes on (a tool
 * source starting, another caller's turn), but the caller's promise rejects
 * as soon as its signal aborts, while giving up is still allowed.
 */

/**
 * `work`'s outcome, or a rejection with `cancelled()` as soon as `signal`
 * aborts (at once if it has) while `mayGiveUp()` holds. A failure of `work`
 * after the caller gave up is nobody's to hear, and is not reported as
 * unhandled.
 */
export function giveUpOnAbort<T>(work: Promise<T>, signal: AbortSignal, cancelled: () => Error, mayGiveUp: () => boolean = () => true): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      if (mayGiveUp()) reject(cancelled());
    };
    // A signal aborted already fires no event: the caller leaves now, not once the work ends.
    if (signal.aborted) onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    const done = (): void => signal.removeEventListener('abort', onAbort);
    work.then(
      (value) => {
        done();
        resolve(value);
      },
      (error: unknown) => {
        done();
        reject(error);
      },
    );
  });
}
