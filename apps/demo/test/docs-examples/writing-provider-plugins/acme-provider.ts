import { definePlugin, defineProvider, ProviderError, type AttemptRequest, type AttemptResult, type Provider } from '@askloop/controller';

/** Settings of the ACME provider; the key defaults to the ACME_API_KEY environment variable. */
export interface AcmeSettings {
  readonly baseURL?: string;
  readonly apiKey?: string;
  /** Model ids this provider accepts (others are PROVIDER_MODEL_NOT_FOUND). */
  readonly models?: string[];
  /** One attempt's limit: a PROVIDER_TIMEOUT tells users to raise timeoutMs in the plugin's options, so take it here. */
  readonly timeoutMs?: number;
}

/** A provider for a (made-up) JSON API: POST {baseURL}/v1/generate → {"text", "usage": {"input", "output"}}. */
export function createAcmeProvider(settings: AcmeSettings = {}): Provider {
  // Read at call time, never at import: importing the plugin needs no key.
  const apiKey = () => settings.apiKey ?? process.env['ACME_API_KEY'];
  const baseURL = settings.baseURL ?? process.env['ACME_BASE_URL'] ?? 'https://api.acme.example';
  return defineProvider({
    name: 'acme',
    settings: { ...(settings.models === undefined ? {} : { models: settings.models }), timeoutMs: settings.timeoutMs ?? 60_000 },
    // Every value listed here is scrubbed from results, errors and events before they leave the call.
    secrets: () => [apiKey()],
    attempt: (modelId) => async (request: AttemptRequest): Promise<AttemptResult> => {
      const key = apiKey();
      if (key === undefined || key === '') {
        throw new ProviderError({ code: 'PROVIDER_CONFIG', provider: 'acme', model: modelId, retryable: false, message: 'no API key: set ACME_API_KEY' });
      }
      // request.fetch is tied to the call's signal and timeout, and records the status:
      // a plain Error thrown after a 429 or 5xx is classified, retried and redacted for you.
      const response = await request.fetch(`${baseURL}/v1/generate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: modelId, system: request.system, prompt: request.prompt, temperature: request.settings.temperature }),
        signal: request.signal,
      });
      if (!response.ok) throw new Error(await response.text());
      const body = (await response.json()) as { text: string; usage: { input: number; output: number } };
      // A provider that cannot stream hands the whole text over at once when the caller streams.
      request.onText?.(body.text);
      return { text: body.text, usage: { inputTokens: body.usage.input, outputTokens: body.usage.output }, finishReason: 'stop', raw: body };
    },
  });
}

/** The plugin: `acme:<model>` for every agent. Default-export it from your package for askloop.config.yaml. */
export default function acmePlugin(settings: AcmeSettings = {}) {
  return definePlugin({ name: 'acme', specificationVersion: 'v1', providers: { acme: createAcmeProvider(settings) } });
}
