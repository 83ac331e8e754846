/**
 * A provider's definition and settings, checked where they are given
 * (what its attempt resolves: `attempt-result-check.ts`). A plain-JavaScript provider without
 * `settings` failed with a bare TypeError; `timeoutMs: -1` or
 * `maxRetries: 'lots'` were silently taken as no timeout or as NaN; a name
 * with a `:` could never be reached (`name:model` splits at the first one).
 */
import { ProviderError } from '../errors/provider-error.ts';

/** How a setting's value looks in a message: `null`, `a list`, `an object`, a string quoted, or the value itself. */
export function describeSetting(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'string' ? JSON.stringify(value) : typeof value === 'object' ? 'an object' : String(value);
}

/** What a value is, never what it holds: for a setting that may be a key (`secrets: apiKey`), which must not be quoted. */
export function describeKind(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** What was thrown, by its kind only (its message may quote a key): `a SyntaxError`, `an Error`, `a string`, `null`. */
export function describeThrown(thrown: unknown): string {
  if (!(thrown instanceof Error)) return describeKind(thrown);
  const name = String(thrown.name);
  return `${/^[aeiou]/i.test(name) ? 'an' : 'a'} ${name}`;
}

/** A plain object: not null, not a list. */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown): boolean => typeof value === 'number' && Number.isInteger(value) && value >= 0;
const isDuration = (value: unknown): boolean => typeof value === 'number' && !Number.isNaN(value) && value >= 0;

/** The characters a provider name cannot hold: `name:model` splits at the first `:`, and white space cannot be typed in an id. */
const REFUSED_IN_NAME = /[:\s]/;
/** Runs of them, for {@link providerNameFrom}. */
const REFUSED_RUNS = /[:\s]+/;

/** What is wrong with a provider name, or undefined: the part before the first `:` of `name:model`. */
export function providerNameProblem(name: unknown): string | undefined {
  if (typeof name !== 'string' || name === '') return `a provider's name is the text before ':' in 'name:model', got ${name === '' ? 'an empty name' : describeSetting(name)}`;
  if (REFUSED_IN_NAME.test(name)) return `the provider name ${JSON.stringify(name)} cannot hold ':' or white space: 'name:model' splits at the first ':', so no model id could reach it`;
  return undefined;
}

/**
 * A provider name made from another's label (an AI SDK model's `provider`,
 * which may read `gateway:openai` or `My Server`): each run of `:` and
 * white space inside it a `-`, those at its ends dropped. Empty when nothing
 * else is left.
 */
export function providerNameFrom(label: string): string {
  return label.split(REFUSED_RUNS).filter((part) => part !== '').join('-');
}

/** The fields of `defineProvider`'s definition (`ProviderDefinition`). */
const DEFINITION_FIELDS = ['name', 'settings', 'attempt', 'secrets', 'load'] as const;
/** The fields of `retry` (`RetrySettings`): any other is a misspelling that would leave the default in force. */
const RETRY_FIELDS = ['maxRetries', 'initialDelayMs', 'maxDelayMs', 'maxRetryAfterMs', 'sleep', 'random'] as const;
/** The settings every provider reads (`ProviderSettings`). */
const SHARED_SETTINGS = ['apiKey', 'baseURL', 'headers', 'fetch', 'retry', 'timeoutMs', 'prices', 'models', 'onEvent'] as const;
/** Names a provider's own settings may not take: each is a shared setting written as another name, which would be ignored. */
const SHARED_SETTING_SLIPS: Readonly<Record<string, string>> = { timeout: 'timeoutMs', retries: 'retry', maxretries: 'retry: { maxRetries }' };

/** The shared setting `key` is, in any case or as a known slip (`timeout`), or undefined. */
function sharedSettingMeant(key: string): string | undefined {
  const lower = key.toLowerCase();
  if (Object.hasOwn(SHARED_SETTING_SLIPS, lower)) return SHARED_SETTING_SLIPS[lower];
  return SHARED_SETTINGS.find((name) => name.toLowerCase() === lower);
}

/**
 * The known name a misspelt one most likely meant: the same letters in other
 * case, else the name sharing the longest start with it, less the difference
 * in length (`maxRetry` is `maxRetries`, not `maxRetryAfterMs`; `timeout` is
 * `timeoutMs`), when they share at least three letters and the start outweighs
 * the difference by two, or one is a prefix of the other (`base`, `baseURL`).
 */
export function meantName(key: string, known: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const same = known.find((name) => name.toLowerCase() === lower);
  if (same !== undefined) return same;
  let best: { name: string; score: number } | undefined;
  for (const name of known) {
    const other = name.toLowerCase();
    let shared = 0;
    while (shared < lower.length && shared < other.length && lower[shared] === other[shared]) shared++;
    const score = shared - Math.abs(lower.length - other.length);
    // One a prefix of the other (`base` for `baseURL`) is meant whatever the difference in length.
    const prefix = shared === Math.min(lower.length, other.length);
    if (shared >= 3 && (score >= 2 || prefix) && (best === undefined || score > best.score)) best = { name, score };
  }
  return best?.name;
}

/**
 * A key of a provider's settings that is a shared setting misspelt (`timeout`,
 * `baseUrl`, `maxRetries` outside `retry`), as `'timeout': did you mean
 * 'timeoutMs'?`, or undefined. Other keys are the provider's own settings.
 */
function sharedSettingSlip(settings: Record<string, unknown>): string | undefined {
  for (const key of Object.keys(settings)) {
    if ((SHARED_SETTINGS as readonly string[]).includes(key)) continue;
    const meant = sharedSettingMeant(key);
    if (meant !== undefined) return `settings.${key} is not read; did you mean ${meant}? (the settings every provider reads: ${SHARED_SETTINGS.join(', ')})`;
  }
  return undefined;
}

/** What is wrong with `timeoutMs` and `retry` of a provider's or a model's settings, or undefined. */
export function callSettingsProblem(settings: { readonly timeoutMs?: unknown; readonly retry?: unknown }): string | undefined {
  const { timeoutMs, retry } = settings;
  if (timeoutMs !== undefined && !isDuration(timeoutMs)) return `timeoutMs must be a number of milliseconds ≥ 0 (0 or Infinity: no timeout), got ${describeSetting(timeoutMs)}`;
  if (retry === undefined) return undefined;
  if (!isRecord(retry)) return `retry must be an object ({ maxRetries, initialDelayMs, maxDelayMs, maxRetryAfterMs }), got ${describeSetting(retry)}`;
  for (const field of Object.keys(retry)) {
    if ((RETRY_FIELDS as readonly string[]).includes(field)) continue;
    const meant = meantName(field, RETRY_FIELDS);
    return `retry has no field '${field}'${meant === undefined ? '' : `; did you mean '${meant}'?`} (the fields: ${RETRY_FIELDS.join(', ')})`;
  }
  if (retry['maxRetries'] !== undefined && !isCount(retry['maxRetries'])) return `retry.maxRetries must be a whole number ≥ 0, got ${describeSetting(retry['maxRetries'])}`;
  for (const field of ['initialDelayMs', 'maxDelayMs', 'maxRetryAfterMs']) {
    if (retry[field] !== undefined && !isDuration(retry[field])) return `retry.${field} must be a number of milliseconds ≥ 0, got ${describeSetting(retry[field])}`;
  }
  for (const field of ['sleep', 'random']) {
    if (retry[field] !== undefined && typeof retry[field] !== 'function') return `retry.${field} must be a function, got ${describeSetting(retry[field])}`;
  }
  return undefined;
}

/** Throws `PROVIDER_CONFIG` for a definition `defineProvider` cannot build a provider from. */
export function requireProviderDefinition(definition: unknown): void {
  const name = isRecord(definition) && typeof definition['name'] === 'string' ? definition['name'] : undefined;
  const fail = (message: string): never => {
    throw new ProviderError({ code: 'PROVIDER_CONFIG', ...(name === undefined ? {} : { provider: name }), retryable: false, message: `defineProvider: ${message}` });
  };
  if (!isRecord(definition)) return fail(`takes { name, settings, attempt }, got ${describeSetting(definition)}`);
  // A field defineProvider does not read (`timeoutMs` or `retry` beside `settings` instead of in it) would leave the default in force, silently.
  for (const key of Object.keys(definition)) {
    if ((DEFINITION_FIELDS as readonly string[]).includes(key)) continue;
    const setting = sharedSettingMeant(key);
    const meant = setting !== undefined ? `settings: { ${setting} }` : meantName(key, DEFINITION_FIELDS);
    return fail(`'${key}' is not read${meant === undefined ? '' : `; did you mean ${meant}?`} (its fields: ${DEFINITION_FIELDS.join(', ')}; the shared settings go in settings)`);
  }
  const nameProblem = providerNameProblem(definition['name']);
  if (nameProblem !== undefined) return fail(nameProblem);
  if (typeof definition['attempt'] !== 'function') return fail(`attempt must be a function (modelId) => attempt, got ${describeSetting(definition['attempt'])}`);
  if (definition['secrets'] !== undefined && typeof definition['secrets'] !== 'function') return fail(`secrets must be a function () => [key, …], called at each request, got ${describeKind(definition['secrets'])}`);
  if (definition['load'] !== undefined && typeof definition['load'] !== 'function') return fail(`load must be a function () => promise, awaited before a call's first attempt, got ${describeKind(definition['load'])}`);
  const settings = definition['settings'];
  if (settings !== undefined && !isRecord(settings)) return fail(`settings must be an object, got ${describeSetting(settings)}`);
  const problem = callSettingsProblem(settings ?? {}) ?? sharedSettingSlip(settings ?? {}) ?? baseUrlProblem((settings ?? {})['baseURL']) ?? fetchSettingProblem((settings ?? {})['fetch']) ?? pricesSettingProblem((settings ?? {})['prices'], name);
  if (problem !== undefined) return fail(problem.startsWith('settings.') ? problem : `settings.${problem}`);
  const models = (settings ?? {})['models'];
  if (models !== undefined && !(Array.isArray(models) && models.every((model) => typeof model === 'string'))) return fail(`settings.models must be a list of model ids, got ${describeSetting(models)}`);
}

/**
 * What is wrong with a `baseURL` setting, or undefined: an http(s) URL when
 * given. `localhost:8080/v1` or `ftp://…` was taken, and the first call failed
 * after its retries saying only that nothing answered.
 */
export function baseUrlProblem(baseURL: unknown): string | undefined {
  if (baseURL === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = typeof baseURL === 'string' ? new URL(baseURL) : undefined;
  } catch {
    url = undefined;
  }
  // Credentials in the URL: fetch refuses them at every call ("send them in a header"), and they must not be shown.
  if (url !== undefined && (url.username !== '' || url.password !== '')) return 'baseURL holds a user name or password (user:…@host); give the key as apiKey or in headers, and the URL without it';
  if (url !== undefined && (url.protocol === 'http:' || url.protocol === 'https:')) return undefined;
  const shown = typeof baseURL === 'string' ? JSON.stringify(withoutSecrets(baseURL)) : describeSetting(baseURL);
  return `baseURL must be an http:// or https:// URL, e.g. https://proxy.example.com/v1, got ${shown}`;
}

/**
 * A malformed URL as it may be shown: everything before its last `@` (a
 * `user:password@` part, whatever the password holds: `/`, `@`) and its query
 * and fragment (`?key=…`) hidden, since a URL that does not parse may still
 * hold a key. Before, `https://me:ab/cd@proxy:99999` was shown whole.
 */
function withoutSecrets(text: string): string {
  const cut = text.replace(/[?#][\s\S]*$/, (rest) => `${rest[0]}…`);
  const at = cut.lastIndexOf('@');
  if (at === -1) return cut;
  const scheme = /^[a-z][a-z0-9+.-]*:(?:\/\/)?/i.exec(cut)?.[0] ?? '';
  return `${scheme}…${cut.slice(Math.max(at, scheme.length))}`;
}

/** What is wrong with a `fetch` setting, or undefined: a function when given (`fetch: 'nope'` failed each call as PROVIDER_UNKNOWN). */
export function fetchSettingProblem(fetchSetting: unknown): string | undefined {
  return fetchSetting === undefined || typeof fetchSetting === 'function' ? undefined : `fetch must be a function (url, init) => Promise<Response>, such as globalThis.fetch, got ${describeKind(fetchSetting)}`;
}

/**
 * Throws `PROVIDER_CONFIG` naming `factory` when a provider's own setting is
 * wrong (`problem`, from the factory's check); nothing otherwise. For the
 * settings `defineProvider` does not know (`api`, `defaultMaxOutputTokens`).
 */
export function requireOwnSetting(provider: string, factory: string, problem: string | undefined): void {
  if (problem !== undefined) throw new ProviderError({ code: 'PROVIDER_CONFIG', provider, retryable: false, message: `${factory}: ${problem}` });
}

/**
 * What is wrong with a built-in factory's `settings` beyond what `defineProvider` checks, or undefined: a setting
 * neither shared nor the factory's own (`own`), which was ignored (`defaultMaxOutputToken`, `keepalive`).
 */
export function unknownSettingProblem(settings: unknown, own: readonly string[]): string | undefined {
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) return `takes settings { ${own.join(', ')}, apiKey?, baseURL?, … }, got ${describeKind(settings)}`;
  const known = [...own, ...SHARED_SETTINGS];
  for (const key of Object.keys(settings)) {
    if (known.includes(key)) continue;
    const meant = meantName(key, known);
    return `there is no setting '${key}'${meant === undefined ? '' : `; did you mean '${meant}'?`} (the settings: ${known.join(', ')})`;
  }
  return undefined;
}

/** The fields of a model's prices (`ModelPrices`); any other (`input`, `output`) would leave the model unpriced. */
const PRICE_FIELDS = ['inputPerMillion', 'outputPerMillion', 'cachedInputPerMillion', 'cacheWriteInputPerMillion'] as const;

/**
 * What is wrong with one model's prices (`ModelPrices`), or undefined: an
 * object of the four known fields, the first two given, each a finite number
 * ≥ 0. Unchecked, `{ input: 1 }` or `NaN` made every cost `NaN` and a
 * negative price a negative one, so a `costUsd` ceiling never tripped.
 */
export function modelPricesProblem(prices: unknown, where: string): string | undefined {
  if (!isRecord(prices)) return `${where} must be { inputPerMillion, outputPerMillion } (US dollars per million tokens), got ${describeSetting(prices)}`;
  for (const field of Object.keys(prices)) {
    if ((PRICE_FIELDS as readonly string[]).includes(field)) continue;
    const meant = meantName(field, PRICE_FIELDS);
    return `${where} has no field '${field}'${meant === undefined ? '' : `; did you mean '${meant}'?`} (the fields: ${PRICE_FIELDS.join(', ')})`;
  }
  for (const field of PRICE_FIELDS) {
    const value = prices[field];
    const required = field === 'inputPerMillion' || field === 'outputPerMillion';
    if (value === undefined && !required) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return `${where}.${field} must be a finite number of US dollars per million tokens ≥ 0, got ${value === undefined ? 'nothing' : describeSetting(value)}`;
  }
  return undefined;
}

/**
 * What is wrong with a provider's `prices` setting (model id → prices), or
 * undefined. A key written as `provider:model` (the agent's model, not the
 * provider's id of it) would price no model: refused.
 */
export function pricesSettingProblem(prices: unknown, provider: string | undefined): string | undefined {
  if (prices === undefined) return undefined;
  if (!isRecord(prices)) return `prices must map model ids to { inputPerMillion, outputPerMillion }, got ${describeSetting(prices)}`;
  for (const [id, entry] of Object.entries(prices)) {
    if (id.trim() === '') return 'prices has an empty model id';
    if (provider !== undefined && id.startsWith(`${provider}:`)) return `prices is keyed by the provider's model id: '${id.slice(provider.length + 1)}', not '${id}'`;
    const problem = modelPricesProblem(entry, `prices[${JSON.stringify(id)}]`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}
