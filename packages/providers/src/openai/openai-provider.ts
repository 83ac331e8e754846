import { defineProvider } from '../call/define-provider.ts';
import type { AttemptRequest } from '../call/model-attempt.ts';
import type { ProviderSettings } from '../call/provider-settings.ts';
import { readEnvironment, requireApiKey } from '../call/require-api-key.ts';
import { SDK_TIMEOUT_MS } from '../call/sdk-timeout.ts';
import type { Provider } from '../model/provider.ts';
import { openAIAttempt, type OpenAIApi } from './openai-attempt.ts';
import { loadOpenAI } from './load-openai.ts';

/** Settings of {@link createOpenAIProvider}. */
export interface OpenAIProviderSettings extends ProviderSettings {
  /** Provider id in the registry and in errors (default `openai`). */
  name?: string | undefined;
  /** `chat` (Chat Completions, default) or `responses` (Responses API). */
  api?: OpenAIApi | undefined;
  organization?: string | undefined;
  project?: string | undefined;
}

const KEY_VARIABLES = ['OPENAI_API_KEY'] as const;

/**
 * OpenAI through the official `openai` SDK (Chat Completions, or the
 * Responses API with `api: 'responses'`). The key comes from `apiKey` or
 * `OPENAI_API_KEY`, the URL from `baseURL`, `OPENAI_BASE_URL` or
 * `https://api.openai.com/v1`. The SDK's own retries are off (`maxRetries: 0`):
 * retries are ours, the same for every provider.
 */
export function createOpenAIProvider(settings: OpenAIProviderSettings = {}): Provider {
  const name = settings.name ?? 'openai';
  return defineProvider({
    name,
    settings,
    secrets: () => [settings.apiKey ?? readEnvironment(KEY_VARIABLES)],
    attempt: (modelId) =>
      openAIAttempt({
        api: settings.api ?? 'chat',
        modelId,
        maxTokensField: 'max_completion_tokens',
        includeStreamUsage: true,
        client: async (request: AttemptRequest) =>
          new (await loadOpenAI())({
            apiKey: requireApiKey(name, modelId, settings.apiKey, KEY_VARIABLES),
            baseURL: settings.baseURL ?? readEnvironment(['OPENAI_BASE_URL']) ?? 'https://api.openai.com/v1',
            organization: settings.organization ?? readEnvironment(['OPENAI_ORG_ID']) ?? null,
            project: settings.project ?? readEnvironment(['OPENAI_PROJECT_ID']) ?? null,
            defaultHeaders: settings.headers,
            fetch: request.fetch,
            maxRetries: 0,
            timeout: SDK_TIMEOUT_MS,
          }),
      }),
  });
}

/** The default OpenAI provider, configured from the environment when a model is called. */
export const openai: Provider = createOpenAIProvider();
