import { ProviderError } from '../errors/provider-error.ts';

/** A `PROVIDER_BAD_RESPONSE` error; `createLanguageModel` fills in provider and model. */
export function badResponse(message: string): ProviderError {
  return new ProviderError({ code: 'PROVIDER_BAD_RESPONSE', message });
}
