import { ProviderError } from '../errors/provider-error.ts';

/**
 * Returns the configured key or the first set environment variable, without
 * white space around it, or throws `PROVIDER_CONFIG` naming the variables
 * (never a value) when there is none or it is only white space.
 */
export function requireApiKey(provider: string, model: string, apiKey: string | undefined, variables: readonly string[]): string {
  // White space around a key (a CRLF `.env` file, a pasted space) is never part of it, and a header cannot carry a
  // line break: the key is sent trimmed.
  const key = (apiKey ?? readEnvironment(variables))?.trim();
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
