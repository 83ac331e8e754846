import type { ProviderErrorCode } from './provider-error-code.ts';

/**
 * Maps an HTTP status to an error code. 529 is Anthropic's "overloaded";
 * 408 and 409 are retryable per the providers' own SDKs, so they count as
 * server-side trouble here.
 */
export function codeForStatus(status: number): ProviderErrorCode {
  if (status === 401 || status === 403) return 'PROVIDER_AUTH';
  if (status === 429) return 'PROVIDER_RATE_LIMIT';
  if (status === 404) return 'PROVIDER_MODEL_NOT_FOUND';
  if (status === 408 || status === 409 || status >= 500) return 'PROVIDER_SERVER';
  if (status >= 400) return 'PROVIDER_BAD_REQUEST';
  return 'PROVIDER_BAD_RESPONSE';
}
