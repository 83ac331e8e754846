import { ProviderError } from './provider-error.ts';

/** `PROVIDER_MODEL_NOT_FOUND` listing the model ids that do exist. */
export function modelNotFound(provider: string, modelId: string, available: readonly string[]): ProviderError {
  return new ProviderError({
    code: 'PROVIDER_MODEL_NOT_FOUND',
    provider,
    model: modelId,
    message: `unknown model "${modelId}"; available: ${available.join(', ') || '(none)'}`,
  });
}
