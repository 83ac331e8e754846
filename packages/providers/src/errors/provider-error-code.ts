/**
 * Every stable error code of `@askloop/providers`, sorted. The README lists
 * each one with how to fix it; codes never change meaning once published.
 */
export const PROVIDER_ERROR_CODES = [
  'PROVIDER_ABORTED',
  'PROVIDER_AUTH',
  'PROVIDER_BAD_REQUEST',
  'PROVIDER_BAD_RESPONSE',
  'PROVIDER_CONFIG',
  'PROVIDER_MODEL_NOT_FOUND',
  'PROVIDER_NETWORK',
  'PROVIDER_NOT_FOUND',
  'PROVIDER_RATE_LIMIT',
  'PROVIDER_REPLAY_INVALID',
  'PROVIDER_SCRIPT_EXHAUSTED',
  'PROVIDER_SERVER',
  'PROVIDER_TIMEOUT',
  'PROVIDER_UNKNOWN',
] as const;

/** A stable error code carried by every {@link ProviderError}. */
export type ProviderErrorCode = (typeof PROVIDER_ERROR_CODES)[number];

/** Codes that a retry may cure: the loop in `runWithRetries` retries only these. */
export const RETRYABLE_CODES: ReadonlySet<ProviderErrorCode> = new Set([
  'PROVIDER_NETWORK',
  'PROVIDER_RATE_LIMIT',
  'PROVIDER_SERVER',
]);
