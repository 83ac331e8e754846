import { requireOwnSetting, unknownSettingProblem } from '../call/provider-definition-check.ts';
import { lazyImport } from '../call/lazy-import.ts';
import { defineProvider } from '../call/define-provider.ts';
import type { ProviderSettings } from '../call/provider-settings.ts';
import { ollamaFetch } from './ollama-error-body.ts';
import { readEnvironment } from '../call/require-api-key.ts';
import { sharedClient } from '../call/shared-client.ts';
import type { Provider } from '../model/provider.ts';
import { ollamaChatAttempt } from './ollama-chat-attempt.ts';

/** Settings of {@link createOllamaProvider}. */
export interface OllamaProviderSettings extends ProviderSettings {
  /** Provider id in the registry and in errors (default `ollama`). */
  name?: string | undefined;
  /** How long the server keeps the model loaded after a call (`"5m"`, seconds, or -1). */
  keepAlive?: string | number | undefined;
}

/** Ollama's default address. */
export const OLLAMA_DEFAULT_HOST = 'http://127.0.0.1:11434';

const KEY_VARIABLES = ['OLLAMA_API_KEY'] as const;
const HOST_VARIABLES = ['OLLAMA_HOST'] as const;

/** The `ollama` package, loaded when a model first makes a call. */
const loadOllama = lazyImport(async () => (await import('ollama')).Ollama);

/**
 * Ollama's native `/api/chat` through the `ollama` package. The host comes
 * from `baseURL`, `OLLAMA_HOST` or `http://127.0.0.1:11434`. No key is needed
 * locally; an `apiKey` (Ollama's hosted service) is sent as a bearer token.
 */
export function createOllamaProvider(settings: OllamaProviderSettings = {}): Provider {
  requireOwnSetting(typeof (settings as { name?: unknown } | null)?.name === 'string' ? (settings as { name: string }).name : 'ollama', 'createOllamaProvider', unknownSettingProblem(settings, ['name', 'keepAlive']));
  const name = settings.name ?? 'ollama';
  // One client per distinct (host, key), read at call time since they may come from the environment.
  const client = sharedClient(async ([host, apiKey]) => {
    const Ollama = await loadOllama();
    return new Ollama({
      host: host as string,
      fetch: ollamaFetch,
      headers: { ...settings.headers, ...(apiKey === undefined ? {} : { Authorization: `Bearer ${apiKey}` }) },
    });
  });
  return defineProvider({
    name,
    load: loadOllama,
    settings,
    secrets: () => [settings.apiKey ?? readEnvironment(KEY_VARIABLES)],
    attempt: (modelId) =>
      ollamaChatAttempt({
        modelId,
        keepAlive: settings.keepAlive,
        client: () =>
          client([settings.baseURL ?? readEnvironment(HOST_VARIABLES) ?? OLLAMA_DEFAULT_HOST, settings.apiKey ?? readEnvironment(KEY_VARIABLES)]),
      }),
  });
}

/** The default Ollama provider (local server, or `OLLAMA_HOST`). */
export const ollama: Provider = createOllamaProvider();
