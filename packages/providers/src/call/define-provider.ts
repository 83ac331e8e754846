import { modelNotFound } from '../errors/model-not-found.ts';
import type { LanguageModel } from '../model/language-model.ts';
import type { LanguageModelOptions, Provider } from '../model/provider.ts';
import { createLanguageModel } from './create-language-model.ts';
import type { ModelAttempt } from './model-attempt.ts';
import type { ProviderSettings } from './provider-settings.ts';

/** The provider-specific parts `defineProvider` needs. */
export interface ProviderDefinition {
  name: string;
  settings: ProviderSettings;
  /** Builds the wire code for one model id. */
  attempt: (modelId: string) => ModelAttempt;
  /** Secrets to redact, resolved at call time (the key may come from the environment). */
  secrets: () => readonly (string | undefined)[];
}

/**
 * Builds the plain provider object every factory returns: it checks the
 * optional `models` allow-list and wraps each model with `createLanguageModel`.
 */
export function defineProvider(definition: ProviderDefinition): Provider {
  const { name, settings } = definition;
  const languageModel = (modelId: string, options: LanguageModelOptions = {}): LanguageModel => {
    if (settings.models !== undefined && !settings.models.includes(modelId)) {
      throw modelNotFound(name, modelId, settings.models);
    }
    return createLanguageModel({
      provider: name,
      modelId,
      attempt: definition.attempt(modelId),
      secrets: definition.secrets,
      retry: settings.retry,
      timeoutMs: settings.timeoutMs,
      prices: options.prices ?? settings.prices?.[modelId],
      onEvent: settings.onEvent,
      fetch: settings.fetch,
    });
  };
  return { name, modelIds: settings.models, languageModel };
}
