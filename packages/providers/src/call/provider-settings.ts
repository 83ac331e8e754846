import type { ModelPrices } from '../model/model-prices.ts';
import type { ProviderEventListener } from '../model/provider-event.ts';
import type { RetrySettings } from '../retry/retry-settings.ts';

/** Settings every provider factory accepts. */
export interface ProviderSettings {
  /** API key; when omitted, read from the provider's usual environment variable at call time. */
  apiKey?: string | undefined;
  /** Base URL of the API (a proxy, a compatible server, or a test server). */
  baseURL?: string | undefined;
  /** Extra HTTP headers sent with every request. */
  headers?: Record<string, string> | undefined;
  /** Custom fetch (proxies, instrumentation, tests); default `nodeHttpFetch`, which hands what it does not serve to Node's `fetch`. */
  fetch?: typeof globalThis.fetch | undefined;
  retry?: RetrySettings | undefined;
  /** Per-attempt timeout in milliseconds (default 120 000). */
  timeoutMs?: number | undefined;
  /** Prices by model id, for cost accounting. */
  prices?: Record<string, ModelPrices> | undefined;
  /** When given, only these model ids are accepted (others throw `PROVIDER_MODEL_NOT_FOUND`). */
  models?: readonly string[] | undefined;
  onEvent?: ProviderEventListener | undefined;
}
