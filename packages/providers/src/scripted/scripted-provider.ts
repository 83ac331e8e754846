import { createLanguageModel } from '../call/create-language-model.ts';
import type { ProviderSettings } from '../call/provider-settings.ts';
import { modelNotFound } from '../errors/model-not-found.ts';
import type { LanguageModel } from '../model/language-model.ts';
import type { ModelPrices } from '../model/model-prices.ts';
import type { Provider } from '../model/provider.ts';
import { scriptedAttempt, type WhenExhausted } from './scripted-attempt.ts';
import { requireScriptedProviderSettings, requireScriptedReplies } from './scripted-settings-check.ts';
import type { ScriptedReplies } from './scripted-reply.ts';

/** Settings of {@link createScriptedModel}. */
export interface ScriptedModelSettings extends Pick<ProviderSettings, 'retry' | 'timeoutMs' | 'onEvent'> {
  provider?: string | undefined;
  modelId?: string | undefined;
  prices?: ModelPrices | undefined;
  /** After the last listed reply: fail with `PROVIDER_SCRIPT_EXHAUSTED` (default) or repeat it. */
  whenExhausted?: WhenExhausted | undefined;
}

/**
 * A model that answers from a list (or a function of the turn): for tests,
 * the demo and reproducible bug reports. It runs through the same retry,
 * timeout, event and cost code as the real providers, so scripted failures
 * (`{ error: 'PROVIDER_RATE_LIMIT' }`) exercise the caller's error paths.
 */
export function createScriptedModel(replies: ScriptedReplies, settings: ScriptedModelSettings = {}): LanguageModel {
  requireScriptedReplies(replies, settings.provider ?? 'scripted', 'createScriptedModel: its replies');
  return createLanguageModel({
    provider: settings.provider ?? 'scripted',
    modelId: settings.modelId ?? 'scripted',
    attempt: scriptedAttempt(replies, settings.whenExhausted ?? 'error'),
    retry: settings.retry,
    timeoutMs: settings.timeoutMs,
    prices: settings.prices,
    onEvent: settings.onEvent,
  });
}

/**
 * A registry provider of named scripted models: `scripted:demo`. Each call of
 * `languageModel` starts the script from the beginning.
 */
export function createScriptedProvider(
  settings: Omit<ScriptedModelSettings, 'provider' | 'modelId' | 'prices'> & {
    name?: string;
    models: Record<string, ScriptedReplies>;
    prices?: ProviderSettings['prices'];
  },
): Provider {
  requireScriptedProviderSettings(settings);
  const name = settings.name ?? 'scripted';
  const modelIds = Object.keys(settings.models);
  return {
    name,
    modelIds,
    languageModel: (modelId, options = {}) => {
      // Own keys only: `constructor` must not find Object's.
      const replies = Object.hasOwn(settings.models, modelId) ? settings.models[modelId] : undefined;
      if (replies === undefined) throw modelNotFound(name, modelId, modelIds);
      return createScriptedModel(replies, { ...settings, provider: name, modelId, prices: options.prices ?? settings.prices?.[modelId] });
    },
  };
}
