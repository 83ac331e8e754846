import { defineProvider } from '../call/define-provider.ts';
import { describeSetting, requireOwnSetting, unknownSettingProblem } from '../call/provider-definition-check.ts';
import type { ProviderSettings } from '../call/provider-settings.ts';
import { readEnvironment, requireApiKey } from '../call/require-api-key.ts';
import { attemptFetch } from '../call/attempt-fetch.ts';
import { SDK_TIMEOUT_MS } from '../call/sdk-timeout.ts';
import { sharedClient } from '../call/shared-client.ts';
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
const BASE_URL_VARIABLES = ['OPENAI_BASE_URL'] as const;
const ORG_VARIABLES = ['OPENAI_ORG_ID'] as const;
const PROJECT_VARIABLES = ['OPENAI_PROJECT_ID'] as const;

/**
 * OpenAI through the official `openai` SDK (Chat Completions, or the
 * Responses API with `api: 'responses'`). The key comes from `apiKey` or
 * `OPENAI_API_KEY`, the URL from `baseURL`, `OPENAI_BASE_URL` or
 * `https://api.openai.com/v1`. The SDK's own retries are off (`maxRetries: 0`):
 * retries are ours, the same for every provider.
 */
export function createOpenAIProvider(settings: OpenAIProviderSettings = {}): Provider {
  requireOwnSetting(typeof (settings as { name?: unknown } | null)?.name === 'string' ? (settings as { name: string }).name : 'openai', 'createOpenAIProvider', unknownSettingProblem(settings, ['name', 'api', 'organization', 'project']));
  const name = settings.name ?? 'openai';
  // A misspelt API ('respnses') fell back to Chat Completions without a word.
  requireOwnSetting(name, 'createOpenAIProvider', settings.api === undefined || settings.api === 'chat' || settings.api === 'responses' ? undefined : `api must be 'chat' or 'responses', got ${describeSetting(settings.api)}`);
  // One client per distinct (key, URL, organization, project), read at call time since they may come from the environment.
  const client = sharedClient(
    async ([apiKey, baseURL, organization, project]) =>
      new (await loadOpenAI())({
        apiKey: apiKey as string,
        baseURL: baseURL as string,
        organization: organization ?? null,
        project: project ?? null,
        defaultHeaders: settings.headers,
        fetch: attemptFetch,
        maxRetries: 0,
        timeout: SDK_TIMEOUT_MS,
      }),
  );
  return defineProvider({
    name,
    load: loadOpenAI,
    settings,
    secrets: () => [settings.apiKey ?? readEnvironment(KEY_VARIABLES)],
    attempt: (modelId) =>
      openAIAttempt({
        api: settings.api ?? 'chat',
        modelId,
        maxTokensField: 'max_completion_tokens',
        includeStreamUsage: true,
        client: async () =>
          client([
            requireApiKey(name, modelId, settings.apiKey, KEY_VARIABLES),
            settings.baseURL ?? readEnvironment(BASE_URL_VARIABLES) ?? 'https://api.openai.com/v1',
            settings.organization ?? readEnvironment(ORG_VARIABLES) ?? null,
            settings.project ?? readEnvironment(PROJECT_VARIABLES) ?? null,
          ]),
      }),
  });
}

/** The default OpenAI provider, configured from the environment when a model is called. */
export const openai: Provider = createOpenAIProvider();
