/**
 * The calls of one controller, so that `close()` is safe: it cancels the calls
 * in flight through their signals (a run ends HALT `ERR_CANCELLED`, resumable,
 * as a caller's own abort ends it) and waits for each to end before the pool
 * and the stores close under them; a call made after `close()` began is
 * refused (`LOOP_CLOSED`) instead of storing a session it cannot run. A
 * caller's `signal` that is not an AbortSignal is refused before anything is
 * stored (`LOOP_ARGUMENT_INVALID`).
 */
import { LoopError } from '../errors/loop-error.ts';

/** See the file comment. */
export interface CallLifecycle {
  /** Runs `call` with the caller's signal joined to the close signal; rejects `LOOP_CLOSED` once close began. */
  track<T>(what: string, signal: unknown, call: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** `LOOP_CLOSED` for a call `what` once close began, else undefined: checked before anything else of a call. */
  closedError(what: string): LoopError | undefined;
  /** Cancels the calls in flight and waits for them; the same promise for every caller. */
  close(): Promise<void>;
}

/** Whether `value` is an AbortSignal (of this realm or another: duck-typed). */
export const isAbortSignal = (value: unknown): value is AbortSignal =>
  typeof value === 'object' && value !== null && typeof (value as AbortSignal).aborted === 'boolean' && typeof (value as AbortSignal).addEventListener === 'function';

/** Creates the lifecycle of a controller. */
export function createCallLifecycle(): CallLifecycle {
  // One controller a call, not one signal shared by all: thousands of calls would hang thousands of listeners on it.
  const inFlight = new Map<Promise<unknown>, AbortController>();
  let closing: Promise<void> | undefined;
  const closedError = (what: string): LoopError | undefined =>
    closing === undefined ? undefined : new LoopError({ code: 'LOOP_CLOSED', message: `${what} was called after close(); make a new controller with createAskLoop` });
  return {
    closedError,
    track(what, signal, call) {
      const closed = closedError(what);
      if (closed !== undefined) return Promise.reject(closed);
      if (signal !== undefined && !isAbortSignal(signal)) {
        return Promise.reject(new LoopError({ code: 'LOOP_ARGUMENT_INVALID', message: `${what}: signal must be an AbortSignal, got ${signal === null ? 'null' : typeof signal}; nothing was stored` }));
      }
      const controller = new AbortController();
      const follow = (): void => controller.abort(signal?.reason);
      if (signal?.aborted === true) follow();
      else signal?.addEventListener('abort', follow, { once: true });
      const running = call(controller.signal);
      inFlight.set(running, controller);
      const forget = (): void => {
        inFlight.delete(running);
        signal?.removeEventListener('abort', follow);
      };
      running.then(forget, forget);
      return running;
    },
    close() {
      closing ??= (async () => {
        const reason = new LoopError({ code: 'LOOP_CLOSED', message: 'the controller was closed' });
        for (const controller of inFlight.values()) controller.abort(reason);
        await Promise.allSettled([...inFlight.keys()]);
      })();
      return closing;
    },
  };
}
