import { followSignal } from './follow-signal.ts';

/** The signal of one attempt, and how it ended. */
export interface AttemptSignal {
  signal: AbortSignal;
  /** True when the per-attempt timeout fired (as opposed to the caller aborting). */
  readonly timedOut: boolean;
  dispose(): void;
}

/**
 * Combines the caller's signal with a per-attempt timeout. We keep our own
 * timer instead of the SDKs' `timeout` options so that a timeout is reported
 * the same way (`PROVIDER_TIMEOUT`) by every provider.
 */
export function createAttemptSignal(callerSignal: AbortSignal | undefined, timeoutMs: number): AttemptSignal {
  const controller = new AbortController();
  let timedOut = false;
  const unfollow = followSignal(callerSignal, controller);
  const timer = Number.isFinite(timeoutMs) && timeoutMs > 0
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
  };
}
