import { ProviderError } from '../errors/provider-error.ts';

/**
 * Returns the configured key or the first set environment variable, or throws
 * `PROVIDER_CONFIG` naming the variables (never a value).
 */
export function requireApiKey(provider: string, model: string, apiKey: string | undefined, variables: readonly string[]): string {
  const key = apiKey ?? readEnvironment(variables);
  if (key === undefined || key === '') {
    throw new ProviderError({
      code: 'PROVIDER_CONFIG',
      provider,
      model,
      retryable: false,
      message: `no API key: set ${variables.join(' or ')} (or, in code, pass apiKey to the provider)`,
    });
  }
  return key;
}

/** The first set environment variable among `variables`, if any. */
export function readEnvironment(variables: readonly string[]): string | undefined {
  return variables.map((name) => process.env[name]).find((value) => value !== undefined && value !== '');
}
