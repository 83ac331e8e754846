import { definePlugin, defineProvider, ProviderError, type AttemptRequest, type AttemptResult, type Provider } from '@askloop/controller';

/** Settings of the ACME provider; the key defaults to the ACME_API_KEY environment variable. */
export interface AcmeSettings {
  readonly baseURL?: string;
  /** The key itself, for programs that manage keys; askloop.config.yaml refuses keys and names a variable instead. */
  readonly apiKey?: string;
  /** The environment variable that holds the key (default ACME_API_KEY): what a config file's options name. */
  readonly apiKeyEnv?: string;
  /** Model ids this provider accepts (others are PROVIDER_MODEL_NOT_FOUND). */
  readonly models?: string[];
  /** One attempt's limit: a PROVIDER_TIMEOUT tells users to raise timeoutMs in the plugin's options, so take it here. */
  readonly timeoutMs?: number;
  /** US dollars a million tokens, by model id: each call's cost, and what lets an agent set ceilings.costUsd. */
  readonly prices?: Readonly<Record<string, { readonly inputPerMillion: number; readonly outputPerMillion: number }>>;
}

/** A provider for a (made-up) JSON API: POST {baseURL}/v1/generate → {"text", "usage": {"input", "output"}}. */
export function createAcmeProvider(settings: AcmeSettings = {}): Provider {
  // Read at call time, never at import: importing the plugin needs no key.
  const keyVariable = settings.apiKeyEnv ?? 'ACME_API_KEY';
  const apiKey = () => settings.apiKey ?? process.env[keyVariable];
  const baseURL = settings.baseURL ?? process.env['ACME_BASE_URL'] ?? 'https://api.acme.example';
  return defineProvider({
    name: 'acme',
    settings: {
      ...(settings.models === undefined ? {} : { models: settings.models }),
      // Checked where the provider is made (PROVIDER_CONFIG, naming the model and field), so at the config entry's line.
      ...(settings.prices === undefined ? {} : { prices: settings.prices }),
      timeoutMs: settings.timeoutMs ?? 60_000,
    },
    // Every value listed here is scrubbed from results, errors and events before they leave the call.
    secrets: () => [apiKey()],
    attempt: (modelId) => async (request: AttemptRequest): Promise<AttemptResult> => {
      const key = apiKey();
      if (key === undefined || key === '') {
        throw new ProviderError({ code: 'PROVIDER_CONFIG', provider: 'acme', model: modelId, retryable: false, message: `no API key: set ${keyVariable}` });
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

const OPTIONS = ['baseURL', 'apiKey', 'apiKeyEnv', 'models', 'timeoutMs', 'prices'];

/**
 * The options, checked: askloop.config.yaml hands the factory whatever its entry's `options:` hold, so name a mistake
 * here (the CLI shows it at the entry's line) rather than let it surface at the first model call.
 */
export function acmeSettings(options: unknown): AcmeSettings {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) throw new TypeError('acme: the options must be a map');
  const { baseURL, apiKey, apiKeyEnv, models, timeoutMs, prices } = options as Record<string, unknown>;
  const unknown = Object.keys(options).find((key) => !OPTIONS.includes(key));
  if (unknown !== undefined) throw new TypeError(`acme: options.${unknown} is not an option (the options: ${OPTIONS.join(', ')})`);
  if (baseURL !== undefined && (typeof baseURL !== 'string' || !/^https?:\/\//.test(baseURL))) throw new TypeError('acme: options.baseURL must be an http:// or https:// URL');
  if (apiKey !== undefined && typeof apiKey !== 'string') throw new TypeError('acme: options.apiKey must be text');
  if (apiKeyEnv !== undefined && (typeof apiKeyEnv !== 'string' || !/^[A-Z_][A-Z0-9_]*$/.test(apiKeyEnv))) throw new TypeError('acme: options.apiKeyEnv must name an environment variable, such as ACME_API_KEY');
  if (models !== undefined && !(Array.isArray(models) && models.every((model) => typeof model === 'string'))) throw new TypeError('acme: options.models must be a list of model ids');
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && (timeoutMs as number) >= 0)) throw new TypeError('acme: options.timeoutMs must be a whole number of milliseconds');
  if (prices !== undefined && (typeof prices !== 'object' || prices === null || Array.isArray(prices))) throw new TypeError('acme: options.prices must be a map from model id to { inputPerMillion, outputPerMillion }');
  return options as AcmeSettings;
}

/** The plugin: `acme:<model>` for every agent. Default-export it from your package: a config entry's options reach it. */
export default function acmePlugin(options: unknown = {}) {
  return definePlugin({ name: 'acme', specificationVersion: 'v1', providers: { acme: createAcmeProvider(acmeSettings(options)) } });
}
