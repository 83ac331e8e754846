/**
 * The signal one tool call hands its bridge (`ToolBridgeCallOptions.signal`).
 * The sandbox's per-run signal aborts whenever the run ends, a normal end
 * included; passed on as it is, a call that finished long before would see
 * it abort afterwards, and a bridge cleaning up on abort would undo or
 * misreport a call that succeeded. This one follows the run's only while
 * the call is open.
 */

/** A call's signal and the function that detaches it from the run's when the call settles. */
export interface CallSignal {
  /** Aborts, with the run's reason, when the run ends while the call is open; never after `close`. */
  readonly signal: AbortSignal;
  /** The call settled: later ends of the run do not reach `signal`. */
  close(): void;
}

/** A signal for one call of the run whose signal is `runSignal`. */
export function callSignal(runSignal: AbortSignal): CallSignal {
  const controller = new AbortController();
  if (runSignal.aborted) {
    controller.abort(runSignal.reason);
    return { signal: controller.signal, close: () => undefined };
  }
  const follow = (): void => controller.abort(runSignal.reason);
  runSignal.addEventListener('abort', follow, { once: true });
  return { signal: controller.signal, close: () => runSignal.removeEventListener('abort', follow) };
}
