import { modelNotFound } from '../errors/model-not-found.ts';
import type { LanguageModel } from '../model/language-model.ts';
import type { LanguageModelOptions, Provider } from '../model/provider.ts';
import { createLanguageModel } from './create-language-model.ts';
import type { ModelAttempt } from './model-attempt.ts';
import { describeSetting, requireProviderDefinition } from './provider-definition-check.ts';
import { ProviderError } from '../errors/provider-error.ts';
import type { ProviderSettings } from './provider-settings.ts';

/** The provider-specific parts `defineProvider` needs. */
export interface ProviderDefinition {
  /** The provider's name: the `openai` of `openai:gpt-4.1-mini`, and the key it is registered under. */
  name: string;
  /** Retry, timeout, prices, the model allow-list (`models`), `onEvent`, `fetch` (see `ProviderSettings`); checked here (`PROVIDER_CONFIG`). */
  settings: ProviderSettings;
  /** Builds the wire code for one model id. */
  attempt: (modelId: string) => ModelAttempt;
  /**
   * Secrets to redact from every error and event, resolved at call time (the
   * key may come from the environment). Leave it out for a provider with none.
   */
  secrets?: () => readonly (string | undefined)[];
  /**
   * Loads what the wire code needs on first use (an SDK imported lazily),
   * awaited before a call's first attempt so its time does not count against
   * `timeoutMs`. Loading `openai` takes ~150 ms on an idle machine and more
   * on a busy one: without this a short timeout could fire on the first call
   * before any request was sent. When it rejects, the call goes on and the
   * attempt meets (and reports) the failure itself.
   */
  load?: () => Promise<unknown>;
}

const NO_SECRETS = (): readonly string[] => [];

/**
 * The wire function `definition.attempt` builds for `modelId`. Handing
 * `defineProvider` the wire function itself, not `(modelId) => wire`, is an
 * easy slip: it failed each call as `PROVIDER_UNKNOWN: spec.attempt is not a
 * function`; it is refused here, when the model is made.
 */
function modelAttempt(definition: ProviderDefinition, modelId: string): ModelAttempt {
  const attempt: unknown = definition.attempt(modelId);
  if (typeof attempt === 'function') return attempt as ModelAttempt;
  // The wire function called with a model id: its promise must not reject unobserved.
  if (attempt instanceof Promise) attempt.catch(() => undefined);
  throw new ProviderError({
    code: 'PROVIDER_CONFIG',
    provider: definition.name,
    model: modelId,
    retryable: false,
    message: `defineProvider: attempt(modelId) returned ${attempt instanceof Promise ? 'a promise' : describeSetting(attempt)}, not the function performing one request; attempt is (modelId) => async (request) => result, so wrap your request function: attempt: (modelId) => (request) => …`,
  });
}

/**
 * Builds the plain provider object every factory returns: it checks the
 * optional `models` allow-list and wraps each model with `createLanguageModel`.
 */
export function defineProvider(definition: ProviderDefinition): Provider {
  requireProviderDefinition(definition);
  // Settings may be left out in JavaScript: none is the defaults.
  const { name, settings = {} } = definition;
  const languageModel = (modelId: string, options: LanguageModelOptions = {}): LanguageModel => {
    if (settings.models !== undefined && !settings.models.includes(modelId)) {
      throw modelNotFound(name, modelId, settings.models);
    }
    return createLanguageModel({
      provider: name,
      modelId,
      attempt: modelAttempt(definition, modelId),
      secrets: definition.secrets ?? NO_SECRETS,
      load: definition.load,
      retry: settings.retry,
      timeoutMs: settings.timeoutMs,
      prices: options.prices ?? settings.prices?.[modelId],
      onEvent: settings.onEvent,
      fetch: settings.fetch,
    });
  };
  return { name, modelIds: settings.models, languageModel };
}
