import { lazyImport } from '../call/lazy-import.ts';
import { defineProvider } from '../call/define-provider.ts';
import type { ProviderSettings } from '../call/provider-settings.ts';
import { readEnvironment, requireApiKey } from '../call/require-api-key.ts';
import { SDK_TIMEOUT_MS } from '../call/sdk-timeout.ts';
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

/** The `@anthropic-ai/sdk` SDK, loaded when a model first makes a call. */
const loadAnthropic = lazyImport(async () => (await import('@anthropic-ai/sdk')).default);

/**
 * Anthropic's Messages API through the official `@anthropic-ai/sdk`. The key
 * comes from `apiKey` or `ANTHROPIC_API_KEY`, the URL from `baseURL`,
 * `ANTHROPIC_BASE_URL` or `https://api.anthropic.com`. SDK retries are off.
 */
export function createAnthropicProvider(settings: AnthropicProviderSettings = {}): Provider {
  const name = settings.name ?? 'anthropic';
  return defineProvider({
    name,
    settings,
    secrets: () => [settings.apiKey ?? readEnvironment(KEY_VARIABLES)],
    attempt: (modelId) =>
      anthropicMessagesAttempt({
        modelId,
        defaultMaxTokens: settings.defaultMaxOutputTokens ?? 4096,
        client: async (request) =>
          new (await loadAnthropic())({
            apiKey: requireApiKey(name, modelId, settings.apiKey, KEY_VARIABLES),
            authToken: null,
            baseURL: settings.baseURL ?? readEnvironment(['ANTHROPIC_BASE_URL']) ?? 'https://api.anthropic.com',
            defaultHeaders: settings.headers,
            fetch: request.fetch,
            maxRetries: 0,
            timeout: SDK_TIMEOUT_MS,
          }),
      }),
  });
}

/** The default Anthropic provider, configured from the environment when a model is called. */
export const anthropic: Provider = createAnthropicProvider();
