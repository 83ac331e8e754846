import { ProviderError } from '../errors/provider-error.ts';
import type { Redactor } from './create-redactor.ts';

/**
 * Rebuilds a {@link ProviderError} from its known fields with every string
 * scrubbed. The copy is fresh on purpose: a plugin's error (a subclass, or one
 * with a `body` or `response` attached) may carry the key anywhere, and only
 * the fields listed here leave the model call. Its stack is the copy's own, so
 * it holds only the redacted message.
 */
export function redactProviderError(error: ProviderError, redactor: Redactor): ProviderError {
  const optional = (value: string | undefined): string | undefined => (value === undefined ? undefined : redactor.text(value));
  const cause = error.cause === undefined || error.cause === null || typeof error.cause !== 'object'
    ? undefined
    : { name: redactor.text(String(error.cause.name)), message: redactor.text(String(error.cause.message)) };
  return new ProviderError({
    code: error.code,
    // A look-alike from another copy of the package may lack `detail`.
    message: redactor.text(String(typeof error.detail === 'string' ? error.detail : error.message)),
    provider: optional(error.provider),
    model: optional(error.model),
    status: error.status,
    retryable: error.retryable,
    retryAfterMs: error.retryAfterMs,
    attempts: error.attempts,
    cause,
  });
}
