/**
 * The code of an error a server names by its type (or code name) rather than
 * by an HTTP status: an error event inside a stream that began with HTTP 200,
 * or an SDK error thrown for one. One table for every provider, so the same
 * name means the same code whichever SDK or reader met it: Anthropic's names
 * (`overloaded_error`, `invalid_request_error`…), OpenAI's (`rate_limit_exceeded`,
 * `invalid_api_key`…) and those of compatible servers (vLLM's `BadRequestError`).
 */
import type { ProviderErrorCode } from './provider-error-code.ts';

/** Each row codes the names as the HTTP status the provider sends them with would be (`codeForStatus`). */
const CODES: readonly (readonly [RegExp, ProviderErrorCode])[] = [
  // 400, 413 (Anthropic's request_too_large), 402 (billing_error)
  [/^(invalid_request_error|BadRequestError|context_length_exceeded|invalid_prompt|request_too_large|billing_error)$/, 'PROVIDER_BAD_REQUEST'],
  // 429
  [/^(rate_limit_error|rate_limit_exceeded|insufficient_quota|RateLimitError)$/, 'PROVIDER_RATE_LIMIT'],
  // 401, 403
  [/^(authentication_error|permission_error|invalid_api_key|AuthenticationError|PermissionDeniedError)$/, 'PROVIDER_AUTH'],
  // 404
  [/^(not_found_error|model_not_found|NotFoundError)$/, 'PROVIDER_MODEL_NOT_FOUND'],
  // 500, 504 (timeout_error), 529 (overloaded_error)
  [/^(overloaded_error|api_error|timeout_error|server_error|InternalServerError)$/, 'PROVIDER_SERVER'],
];

/** The names an error object gives itself: its `type` (but the bare `'error'` of an envelope) and its `code`, when text. */
export function errorNamesOf(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [];
  const { type, code } = value as Record<string, unknown>;
  return [type, code].filter((name): name is string => typeof name === 'string' && name !== 'error');
}

/** The code the first of `names` that the table knows stands for (earlier rows first), or undefined. */
export function codeForErrorNames(names: readonly string[]): ProviderErrorCode | undefined {
  for (const [pattern, code] of CODES) if (names.some((name) => pattern.test(name))) return code;
  return undefined;
}
