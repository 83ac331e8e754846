import { abortableSleep } from './abortable-sleep.ts';
import { DEFAULT_RETRY, type ResolvedRetrySettings, type RetrySettings } from './retry-settings.ts';

/** Merges retry settings over the defaults (later arguments win). */
export function resolveRetrySettings(...layers: (RetrySettings | undefined)[]): ResolvedRetrySettings {
  const merged: RetrySettings = {};
  for (const layer of layers) {
    if (layer === undefined) continue;
    for (const [key, value] of Object.entries(layer)) {
      if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
    }
  }
  return {
    maxRetries: merged.maxRetries ?? DEFAULT_RETRY.maxRetries,
    initialDelayMs: merged.initialDelayMs ?? DEFAULT_RETRY.initialDelayMs,
    maxDelayMs: merged.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs,
    maxRetryAfterMs: merged.maxRetryAfterMs ?? DEFAULT_RETRY.maxRetryAfterMs,
    sleep: merged.sleep ?? abortableSleep,
    random: merged.random ?? Math.random,
  };
}
