/**
 * `createOpenAICompatibleProvider`'s settings, checked when it is made. A
 * missing `baseURL` used to fall through to the OpenAI SDK's default
 * (`https://api.openai.com/v1`), sending the prompt to a server the caller
 * never named; a misspelt setting (`apikey`, `timeout`) was ignored.
 */
import { describeKind, meantName } from '../call/provider-definition-check.ts';
import { ProviderError } from '../errors/provider-error.ts';

/** Every setting the provider reads: its own and the shared `ProviderSettings`. */
const KNOWN = ['name', 'baseURL', 'apiKey', 'maxTokensField', 'api', 'includeStreamUsage', 'headers', 'fetch', 'retry', 'timeoutMs', 'prices', 'models', 'onEvent'] as const;

/** Throws `PROVIDER_CONFIG` for settings that are not an object, a `baseURL` that is not an http(s) URL, an `apiKey` of only white space, or an unknown setting. */
export function requireCompatibleSettings(settings: unknown): void {
  const name = typeof (settings as { name?: unknown } | null)?.name === 'string' ? (settings as { name: string }).name : 'openai-compatible';
  const fail = (message: string): never => {
    throw new ProviderError({ code: 'PROVIDER_CONFIG', provider: name, retryable: false, message: `createOpenAICompatibleProvider: ${message}` });
  };
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return fail('takes settings { name, baseURL, apiKey?, … }');
  const { baseURL } = settings as { baseURL?: unknown };
  if (typeof baseURL !== 'string' || baseURL.trim() === '') {
    return fail(`baseURL is required: the server's URL with its version path, e.g. http://127.0.0.1:8000/v1 (got ${baseURL === undefined ? 'none' : JSON.stringify(baseURL)}); without it the request would go to OpenAI's own API`);
  }
  let url: URL | undefined;
  try {
    url = new URL(baseURL);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) return fail(`baseURL must be an http:// or https:// URL, e.g. http://127.0.0.1:8000/v1, got ${JSON.stringify(baseURL)}`);
  // A key of only white space (`apiKey: process.env.GROQ_KEY` read from a `.env` line `GROQ_KEY= `) is no key: say so
  // here rather than send `Bearer ` and read the server's 401. Never shown: described by its kind and length only.
  const { apiKey } = settings as { apiKey?: unknown };
  if (apiKey !== undefined && apiKey !== null && typeof apiKey !== 'string') return fail(`apiKey must be a string, got ${describeKind(apiKey)}: pass the key itself, or leave apiKey out for a server that needs none`);
  if (typeof apiKey === 'string' && apiKey.trim() === '') {
    return fail(`apiKey is empty${apiKey === '' ? '' : ` after trimming white space (${apiKey.length} character${apiKey.length === 1 ? '' : 's'} of only spaces, tabs or line breaks)`}: pass the key itself, or leave apiKey out for a server that needs none`);
  }
  for (const key of Object.keys(settings)) {
    if ((KNOWN as readonly string[]).includes(key)) continue;
    const guess = meantName(key, KNOWN);
    fail(`there is no setting '${key}'${guess === undefined ? '' : `; did you mean '${guess}'?`} (the settings: ${KNOWN.join(', ')})`);
  }
}
