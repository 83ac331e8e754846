/**
 * `providers:` of `askloop.config.yaml`: settings of the built-in providers
 * (`openai`, `anthropic`, `google`, `ollama`), which the CLI hands to
 * `builtinPlugin({ providerSettings })`. Only what a file may hold: a base
 * URL, the per-attempt timeout, the retries, and prices by model id (so a
 * `ceilings.costUsd` can bound their models). Keys stay in the environment.
 */
import { z } from 'zod';

const milliseconds = (what: string) => z.number().int().min(0, `expected ${what} ≥ 0 milliseconds`).max(2_147_483_647, `expected ${what} of at most 2147483647 milliseconds (Node's timer limit)`);

/** Dollars per million tokens: a finite number ≥ 0. */
const PRICE = z.number().min(0, 'expected a price ≥ 0').finite('expected a finite price');

const PRICES = z.strictObject({
  inputPerMillion: PRICE,
  outputPerMillion: PRICE,
  cachedInputPerMillion: PRICE.optional(),
  cacheWriteInputPerMillion: PRICE.optional(),
});

const RETRY = z.strictObject({
  maxRetries: z.number().int().min(0, 'expected 0 retries or more').max(20, 'expected at most 20 retries').optional(),
  initialDelayMs: milliseconds('the first backoff').optional(),
  maxDelayMs: milliseconds('the longest backoff').optional(),
  maxRetryAfterMs: milliseconds("the longest server-asked wait (retry-after) to honour").optional(),
});

/** An http(s) URL; anything else would only fail at the first model call. */
const BASE_URL = z.string().refine((value) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}, 'expected an http:// or https:// URL, e.g. https://proxy.example.com/v1');

/**
 * Prices by model id. A key is the id as the provider takes it (`gpt-4.1-mini`), not the agent's
 * `provider:model` (`openai:gpt-4.1-mini`, taken silently, would price no model: an id may hold a `:`, as
 * `qwen3:8b` does, so only the provider's own name in front is refused).
 */
const pricesOf = (provider: string) =>
  z.record(z.string(), PRICES).superRefine((prices, context) => {
    for (const id of Object.keys(prices)) {
      if (id.trim() === '') context.addIssue({ code: 'custom', path: [id], message: 'expected a model id (the key is empty)' });
      else if (id.startsWith(`${provider}:`)) context.addIssue({ code: 'custom', path: [id], message: `a model id without the provider: '${id.slice(provider.length + 1)}', not '${id}'` });
    }
  });

const providerOf = (provider: string) =>
  z.strictObject({
    baseURL: BASE_URL.optional(),
    // 0 turns the provider's own timeout off (a loop's quotas.wallMs still bounds a turn).
    timeoutMs: milliseconds('the timeout of one attempt').optional(),
    retry: RETRY.optional(),
    prices: pricesOf(provider).optional(),
  });

const PROVIDER = providerOf('openai');

/** The `providers:` map: one entry for each built-in provider given settings. */
export const PROVIDERS_SCHEMA = z.strictObject({
  openai: providerOf('openai').optional(),
  anthropic: providerOf('anthropic').optional(),
  google: providerOf('google').optional(),
  ollama: providerOf('ollama').optional(),
});

/** The keys each map under `providers:` accepts, by its path, for the unknown-key message. */
export function providerSettingsKeys(path: readonly string[]): readonly string[] {
  if (path.length === 1) return Object.keys(PROVIDERS_SCHEMA.shape);
  if (path.length === 2) return Object.keys(PROVIDER.shape);
  if (path[2] === 'retry') return Object.keys(RETRY.shape);
  if (path[2] === 'prices') return Object.keys(PRICES.shape);
  return [];
}
