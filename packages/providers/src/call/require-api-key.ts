import { ProviderError } from '../errors/provider-error.ts';
import { describeKind } from './provider-definition-check.ts';

/**
 * Returns the configured key or the first environment variable holding one,
 * without white space around it, or throws `PROVIDER_CONFIG` saying which
 * setting is missing or empty (never a value).
 */
export function requireApiKey(provider: string, model: string, apiKey: string | undefined, variables: readonly string[]): string {
  const fail = (message: string): never => {
    throw new ProviderError({ code: 'PROVIDER_CONFIG', provider, model, retryable: false, message });
  };
  const read = `leave apiKey out to read ${variables.join(' or ')}`;
  // `null` reads the environment, as it did when the key was `apiKey ?? environment`.
  if (apiKey !== undefined && apiKey !== null) {
    // Described by its kind, never its value: a key passed as the wrong type is still a key.
    if (typeof apiKey !== 'string') return fail(`apiKey must be a string, got ${describeKind(apiKey)}: pass the key itself, or ${read}`);
    // White space around a key (a CRLF `.env` file, a pasted space) is never part of it, and a header cannot carry a
    // line break: the key is sent trimmed.
    const key = apiKey.trim();
    if (key === '') return fail(`apiKey ${emptyKey(apiKey)}: pass the key itself, or ${read}`);
    return key;
  }
  const key = readEnvironment(variables)?.trim();
  if (key !== undefined) return key;
  // A variable set to white space alone (`OPENAI_API_KEY= ` in a `.env` file) is set, so "set it" would not help.
  const blank = variables.filter((name) => process.env[name] !== undefined && process.env[name] !== '');
  if (blank.length > 0) {
    return fail(`${blank.join(' and ')} ${blank.length === 1 ? 'is' : 'are'} set but ${emptyKey(process.env[blank[0]!]!)}: put the key in ${blank.length === 1 ? 'it' : 'one of them'} (or, in code, pass apiKey to the provider)`);
  }
  return fail(`no API key: set ${variables.join(' or ')} (or, in code, pass apiKey to the provider)`);
}

/** How an empty key reads: `is empty`, or `is empty after trimming white space (3 characters of only spaces, tabs or line breaks)`. */
function emptyKey(value: string): string {
  return value === '' ? 'is empty' : `is empty after trimming white space (${value.length} character${value.length === 1 ? '' : 's'} of only spaces, tabs or line breaks)`;
}

/**
 * The first of `variables` holding more than white space, if any. One holding
 * only white space counts as unset, as an empty one does, so a later variable
 * with the key is not hidden behind it (`GOOGLE_API_KEY` behind a blank
 * `GEMINI_API_KEY`).
 */
export function readEnvironment(variables: readonly string[]): string | undefined {
  return variables.map((name) => process.env[name]).find((value) => value !== undefined && value.trim() !== '');
}
