import { lazyImport } from '../call/lazy-import.ts';
import { defineProvider } from '../call/define-provider.ts';
import { describeSetting, requireOwnSetting, unknownSettingProblem } from '../call/provider-definition-check.ts';
import type { ProviderSettings } from '../call/provider-settings.ts';
import { readEnvironment, requireApiKey } from '../call/require-api-key.ts';
import { attemptFetch } from '../call/attempt-fetch.ts';
import { SDK_TIMEOUT_MS } from '../call/sdk-timeout.ts';
import { sharedClient } from '../call/shared-client.ts';
import type { Provider } from '../model/provider.ts';
import { anthropicMessagesAttempt } from './anthropic-messages-attempt.ts';

/** Settings of {@link createAnthropicProvider}. */
export interface AnthropicProviderSettings extends ProviderSettings {
  /** Provider id in the registry and in errors (default `anthropic`). */
  name?: string | undefined;
  /** `max_tokens` when the call sets no `maxOutputTokens` (the API requires one); default 4096. */
  defaultMaxOutputTokens?: number | undefined;
}

const KEY_VARIABLES = ['ANTHROPIC_API_KEY'] as const;
const BASE_URL_VARIABLES = ['ANTHROPIC_BASE_URL'] as const;

/** The `@anthropic-ai/sdk` SDK, loaded when a model first makes a call. */
const loadAnthropic = lazyImport(async () => (await import('@anthropic-ai/sdk')).default);

/**
 * Anthropic's Messages API through the official `@anthropic-ai/sdk`. The key
 * comes from `apiKey` or `ANTHROPIC_API_KEY`, the URL from `baseURL`,
 * `ANTHROPIC_BASE_URL` or `https://api.anthropic.com`. SDK retries are off.
 */
export function createAnthropicProvider(settings: AnthropicProviderSettings = {}): Provider {
  requireOwnSetting(typeof (settings as { name?: unknown } | null)?.name === 'string' ? (settings as { name: string }).name : 'anthropic', 'createAnthropicProvider', unknownSettingProblem(settings, ['name', 'defaultMaxOutputTokens']));
  const name = settings.name ?? 'anthropic';
  const maxTokens = settings.defaultMaxOutputTokens;
  // A negative or fractional value was sent as max_tokens, for the API to refuse at every call.
  requireOwnSetting(name, 'createAnthropicProvider', maxTokens === undefined || (Number.isSafeInteger(maxTokens) && maxTokens >= 1) ? undefined : `defaultMaxOutputTokens must be a whole number of tokens ≥ 1, got ${describeSetting(maxTokens)}`);
  // One client per distinct (key, URL), read at call time since they may come from the environment.
  const client = sharedClient(
    async ([apiKey, baseURL]) =>
      new (await loadAnthropic())({
        apiKey: apiKey as string,
        authToken: null,
        baseURL: baseURL as string,
        defaultHeaders: settings.headers,
        fetch: attemptFetch,
        maxRetries: 0,
        timeout: SDK_TIMEOUT_MS,
      }),
  );
  return defineProvider({
    name,
    load: loadAnthropic,
    settings,
    secrets: () => [settings.apiKey ?? readEnvironment(KEY_VARIABLES)],
    attempt: (modelId) =>
      anthropicMessagesAttempt({
        modelId,
        defaultMaxTokens: settings.defaultMaxOutputTokens ?? 4096,
        client: async () =>
          client([
            requireApiKey(name, modelId, settings.apiKey, KEY_VARIABLES),
            settings.baseURL ?? readEnvironment(BASE_URL_VARIABLES) ?? 'https://api.anthropic.com',
          ]),
      }),
  });
}

/** The default Anthropic provider, configured from the environment when a model is called. */
export const anthropic: Provider = createAnthropicProvider();
