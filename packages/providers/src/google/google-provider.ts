import { requireOwnSetting, unknownSettingProblem } from '../call/provider-definition-check.ts';
import { lazyImport } from '../call/lazy-import.ts';
import { defineProvider } from '../call/define-provider.ts';
import type { ProviderSettings } from '../call/provider-settings.ts';
import { attemptFetch } from '../call/attempt-fetch.ts';
import { readEnvironment, requireApiKey } from '../call/require-api-key.ts';
import { sharedClient } from '../call/shared-client.ts';
import type { Provider } from '../model/provider.ts';
import { googleGenerateAttempt } from './google-generate-attempt.ts';

/** Settings of {@link createGoogleProvider}. */
export interface GoogleProviderSettings extends ProviderSettings {
  /** Provider id in the registry and in errors (default `google`). */
  name?: string | undefined;
  /** API version path (default `v1beta`, where system instructions and seeds are available). */
  apiVersion?: string | undefined;
}

const KEY_VARIABLES = ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY', 'GOOGLE_API_KEY'] as const;

/** The `@google/genai` SDK, loaded when a model first makes a call. */
const loadGoogleGenAI = lazyImport(async () => (await import('@google/genai')).GoogleGenAI);

/**
 * Google Gemini (`generateContent`) through the official `@google/genai` SDK,
 * with every generation setting sent. The key comes from `apiKey` or
 * `GOOGLE_GENERATIVE_AI_API_KEY` / `GEMINI_API_KEY` / `GOOGLE_API_KEY` and travels in the
 * `x-goog-api-key` header, not in the URL. SDK retries are off (`attempts: 1`).
 */
export function createGoogleProvider(settings: GoogleProviderSettings = {}): Provider {
  requireOwnSetting(typeof (settings as { name?: unknown } | null)?.name === 'string' ? (settings as { name: string }).name : 'google', 'createGoogleProvider', unknownSettingProblem(settings, ['name', 'apiVersion']));
  const name = settings.name ?? 'google';
  // One client per distinct key, read at call time since it may come from the environment.
  const client = sharedClient(
    async ([apiKey]) =>
      new (await loadGoogleGenAI())({
        apiKey: apiKey as string,
        // Never switch to Vertex AI because GOOGLE_GENAI_USE_VERTEXAI happens to be set.
        vertexai: false,
        apiVersion: settings.apiVersion ?? 'v1beta',
        httpOptions: {
          ...(settings.baseURL === undefined ? {} : { baseUrl: settings.baseURL }),
          ...(settings.headers === undefined ? {} : { headers: settings.headers }),
          retryOptions: { attempts: 1 },
          fetch: attemptFetch,
        },
      }),
  );
  return defineProvider({
    name,
    load: loadGoogleGenAI,
    settings,
    secrets: () => [settings.apiKey ?? readEnvironment(KEY_VARIABLES)],
    attempt: (modelId) =>
      googleGenerateAttempt({
        modelId,
        client: async () => client([requireApiKey(name, modelId, settings.apiKey, KEY_VARIABLES)]),
      }),
  });
}

/** The default Google provider, configured from the environment when a model is called. */
export const google: Provider = createGoogleProvider();
