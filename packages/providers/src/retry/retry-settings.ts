/** How failed attempts are retried. All fields are optional; see {@link DEFAULT_RETRY}. */
export interface RetrySettings {
  /** Retries after the first attempt (so `2` means up to 3 attempts). */
  maxRetries?: number | undefined;
  /** Backoff before the first retry; doubles each time. */
  initialDelayMs?: number | undefined;
  /** Upper bound of the exponential backoff. */
  maxDelayMs?: number | undefined;
  /** A server asking to wait longer than this is not retried: the error is returned instead. */
  maxRetryAfterMs?: number | undefined;
  /** Injectable for tests: waits `ms`, rejecting when `signal` aborts. */
  sleep?: ((ms: number, signal: AbortSignal | undefined) => Promise<void>) | undefined;
  /** Injectable for tests: a number in [0, 1) used for jitter. */
  random?: (() => number) | undefined;
}

/** Fully resolved retry settings. */
export type ResolvedRetrySettings = Required<RetrySettings>;

/** Defaults: 2 retries, 500 ms doubling up to 20 s, honour `retry-after` up to 60 s. */
export const DEFAULT_RETRY = {
  maxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
} as const;
