import type { ResolvedRetrySettings } from './retry-settings.ts';

/**
 * Delay before retry number `retry` (1-based): exponential backoff with
 * "equal jitter" (half fixed, half random) so that many clients hitting the
 * same 429 do not come back in lockstep, yet never retry instantly.
 */
export function backoffDelay(retry: number, settings: ResolvedRetrySettings): number {
  const exponential = settings.initialDelayMs * 2 ** (retry - 1);
  const capped = Math.min(settings.maxDelayMs, exponential);
  return Math.round(capped / 2 + settings.random() * (capped / 2));
}
