/**
 * Waits `ms` milliseconds, or rejects with the signal's reason as soon as it
 * aborts, so a caller's abort is never delayed by a retry backoff.
 */
import { LONGEST_TIMER_MS } from '../call/longest-timer.ts';

export function abortableSleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    // A wait past one timer's reach (a server's retry-after under a huge maxRetryAfterMs) is waited in pieces.
    const wait = (left: number): void => {
      timer = setTimeout(() => {
        if (left > LONGEST_TIMER_MS) {
          wait(left - LONGEST_TIMER_MS);
          return;
        }
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, Math.min(left, LONGEST_TIMER_MS));
    };
    wait(ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
