import { defineProvider } from '../call/define-provider.ts';
import type { ProviderSettings } from '../call/provider-settings.ts';
import { attemptFetch } from '../call/attempt-fetch.ts';
import { SDK_TIMEOUT_MS } from '../call/sdk-timeout.ts';
import { sharedClient } from '../call/shared-client.ts';
import type { Provider } from '../model/provider.ts';
import type { MaxTokensField } from './openai-chat-body.ts';
import { requireCompatibleSettings } from './compatible-settings-check.ts';
import { openAIAttempt, type OpenAIApi } from './openai-attempt.ts';
import { loadOpenAI } from './load-openai.ts';

/** Settings of {@link createOpenAICompatibleProvider}. */
export interface OpenAICompatibleProviderSettings extends ProviderSettings {
  /** Provider id in the registry and in errors (`vllm`, `groq`, `openrouter`, …). */
  name: string;
  /** Base URL including the version path, e.g. `http://127.0.0.1:8000/v1`. */
  baseURL: string;
  /** Optional: local servers usually need none. */
  apiKey?: string | undefined;
  /** Default `max_tokens`, which every compatible server understands. */
  maxTokensField?: MaxTokensField | undefined;
  /** `chat` (default; what compatible servers speak) or `responses` where the server has it. */
  api?: OpenAIApi | undefined;
  /** Default true; turn off for servers that reject `stream_options`. */
  includeStreamUsage?: boolean | undefined;
}

/** Sent as the bearer token when no key is configured: the SDK insists on one, and local servers ignore it. */
const NO_KEY = 'no-key';

/** Everything the client is built from is fixed when the provider is created. */
const NO_CONFIG = [] as const;

/**
 * Any server speaking the OpenAI Chat Completions API: vLLM, llama.cpp server,
 * LM Studio, OpenRouter, Groq, Together, DeepSeek, Ollama's `/v1`. The key is
 * never read from `OPENAI_API_KEY`, so an OpenAI key cannot leak to a third party.
 */
export function createOpenAICompatibleProvider(settings: OpenAICompatibleProviderSettings): Provider {
  requireCompatibleSettings(settings);
  // One client for every request of every model of this provider; each request's fetch is its attempt's (attemptFetch).
  const client = sharedClient(
    async () =>
      new (await loadOpenAI())({
        // Trimmed as the other providers' keys are: a header cannot carry the line break a CRLF `.env` file leaves.
        apiKey: settings.apiKey?.trim() ?? NO_KEY,
        baseURL: settings.baseURL,
        organization: null,
        project: null,
        defaultHeaders: settings.headers,
        fetch: attemptFetch,
        maxRetries: 0,
        timeout: SDK_TIMEOUT_MS,
      }),
  );
  return defineProvider({
    name: settings.name,
    load: loadOpenAI,
    settings,
    secrets: () => [settings.apiKey],
    attempt: (modelId) =>
      openAIAttempt({
        api: settings.api ?? 'chat',
        modelId,
        maxTokensField: settings.maxTokensField ?? 'max_tokens',
        includeStreamUsage: settings.includeStreamUsage ?? true,
        client: () => client(NO_CONFIG),
      }),
  });
}
