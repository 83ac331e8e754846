import { followSignal } from './follow-signal.ts';
import { LONGEST_TIMER_MS } from './longest-timer.ts';

/** The signal of one attempt, and how it ended. */
export interface AttemptSignal {
  signal: AbortSignal;
  /** True when the per-attempt timeout fired (as opposed to the caller aborting). */
  readonly timedOut: boolean;
  dispose(): void;
  /**
   * Aborts the attempt's signal (when nothing has yet): after it failed, so a
   * response body still streaming (an SDK that does not cancel it on its
   * error, a generation the server goes on with) is cancelled, not read to
   * its end while the connection is held and the tokens billed.
   */
  abandon(): void;
}

/** Why a failed attempt's signal is aborted; one instance (a DOMException carries a stack). */
const ATTEMPT_FAILED = new DOMException('the attempt failed; its response is no longer read', 'AbortError');


/**
 * Combines the caller's signal with a per-attempt timeout. We keep our own
 * timer instead of the SDKs' `timeout` options so that a timeout is reported
 * the same way (`PROVIDER_TIMEOUT`) by every provider.
 */
export function createAttemptSignal(callerSignal: AbortSignal | undefined, timeoutMs: number): AttemptSignal {
  const controller = new AbortController();
  let timedOut = false;
  const unfollow = followSignal(callerSignal, controller);
  // A timeout longer than a timer holds is as good as none: without this it would fire at once.
  const timer = Number.isFinite(timeoutMs) && timeoutMs > 0 && timeoutMs <= LONGEST_TIMER_MS
    ? setTimeout(() => {
        timedOut = true;
        controller.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError'));
      }, timeoutMs)
    : undefined;
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    dispose() {
      clearTimeout(timer);
      unfollow();
    },
    abandon() {
      if (!controller.signal.aborted) controller.abort(ATTEMPT_FAILED);
    },
  };
}
