import { createLanguageModel } from '../call/create-language-model.ts';
import { describeSetting, providerNameFrom } from '../call/provider-definition-check.ts';
import type { ProviderSettings } from '../call/provider-settings.ts';
import { modelNotFound } from '../errors/model-not-found.ts';
import { ProviderError } from '../errors/provider-error.ts';
import type { LanguageModel } from '../model/language-model.ts';
import type { ModelPrices } from '../model/model-prices.ts';
import type { Provider } from '../model/provider.ts';
import { aiSDKAttempt } from './ai-sdk-attempt.ts';
import { FROM_AISDK, requireAISDKModel, type AISDKModelSource } from './ai-sdk-model-check.ts';
import type { AISDKLanguageModel } from './ai-sdk-types.ts';

/** Settings of {@link fromAISDK} and {@link createAISDKProvider}. */
export type AISDKAdapterSettings = Pick<ProviderSettings, 'retry' | 'timeoutMs' | 'onEvent'> & {
  /** Keys to redact; the AI SDK provider holds its own key, so tell us which it is. */
  secrets?: readonly string[] | undefined;
  /**
   * Provider name in results and errors (default: the AI SDK model's
   * `provider`, each run of `:` and white space in it a `-`). One given here
   * is taken as it is: it must be a name `createLanguageModel` accepts.
   */
  name?: string | undefined;
  prices?: ModelPrices | undefined;
};

/**
 * Wraps any AI SDK `LanguageModelV2`/`V3`/`V4` (e.g. `createMistral()('mistral-large')`)
 * as an AskLoop model. Calls go to `doGenerate`/`doStream` directly, with our
 * retries, timeouts, typed errors and redaction around them. Configure the
 * AI SDK provider without its own retries if it has any.
 */
export function fromAISDK(model: AISDKLanguageModel, settings: AISDKAdapterSettings = {}): LanguageModel {
  return wrapAISDKModel(model, settings, FROM_AISDK);
}

/** {@link fromAISDK}, its refusal of what is no model said as `source` says (`createAISDKProvider`'s `languageModel`). */
function wrapAISDKModel(model: AISDKLanguageModel, settings: AISDKAdapterSettings, source: AISDKModelSource): LanguageModel {
  // Checked first: the name is read from the model, and what is no model must be refused as that, not as a bad name.
  requireAISDKModel(model, source);
  return createLanguageModel({
    provider: settings.name ?? nameOfModel(model),
    modelId: model.modelId,
    attempt: aiSDKAttempt(model),
    secrets: () => settings.secrets ?? [],
    retry: settings.retry,
    timeoutMs: settings.timeoutMs,
    prices: settings.prices,
    onEvent: settings.onEvent,
  });
}

/**
 * The provider name of an AI SDK model without one given: its `provider`
 * made a name (`gateway:openai` → `gateway-openai`). That label is the AI SDK
 * provider's, not chosen to be an AskLoop name, and this model is reached
 * directly, never by a `name:model` id, so a `:` in it is no reason to fail;
 * only a label that leaves no name is `PROVIDER_CONFIG`.
 */
function nameOfModel(model: AISDKLanguageModel): string {
  const label: unknown = model.provider;
  const name = typeof label === 'string' ? providerNameFrom(label) : '';
  if (name !== '') return name;
  throw new ProviderError({
    code: 'PROVIDER_CONFIG',
    model: typeof model.modelId === 'string' ? model.modelId : undefined,
    retryable: false,
    message: `fromAISDK names the model's provider after its 'provider', which is ${label === '' ? 'empty' : describeSetting(label)}; pass a name: fromAISDK(model, { name: 'my-provider' })`,
  });
}

/**
 * A registry provider backed by an AI SDK provider function, e.g.
 * `createAISDKProvider({ name: 'mistral', languageModel: (id) => mistral(id) })`.
 */
export function createAISDKProvider(
  settings: Omit<AISDKAdapterSettings, 'prices' | 'name'> & {
    name: string;
    languageModel: (modelId: string) => AISDKLanguageModel;
    prices?: ProviderSettings['prices'];
    models?: readonly string[];
  },
): Provider {
  return {
    name: settings.name,
    modelIds: settings.models,
    languageModel: (modelId, options = {}) => {
      if (settings.models !== undefined && !settings.models.includes(modelId)) {
        throw modelNotFound(settings.name, modelId, settings.models);
      }
      const source = { lead: `createAISDKProvider's languageModel('${modelId}') must return`, provider: settings.name, modelId };
      return wrapAISDKModel(settings.languageModel(modelId), {
        name: settings.name,
        secrets: settings.secrets,
        retry: settings.retry,
        timeoutMs: settings.timeoutMs,
        onEvent: settings.onEvent,
        prices: options.prices ?? settings.prices?.[modelId],
      }, source);
    },
  };
}
