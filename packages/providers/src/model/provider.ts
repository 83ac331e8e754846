import type { LanguageModel } from './language-model.ts';
import type { ModelPrices } from './model-prices.ts';

/** Per-model options given when a model is obtained from a provider. */
export interface LanguageModelOptions {
  prices?: ModelPrices | undefined;
}

/** A provider plugin: a plain object that hands out models by id. */
export interface Provider {
  /** The provider's id, used as the prefix in registry ids (`openai:gpt-4.1-mini`). */
  readonly name: string;
  /**
   * Model ids this provider accepts, when the set is closed (scripted models,
   * or a configured `models` allow-list). Undefined means any id is passed on.
   */
  readonly modelIds?: readonly string[] | undefined;
  /** Returns the model; throws `PROVIDER_MODEL_NOT_FOUND` for an id outside `modelIds`. */
  languageModel(modelId: string, options?: LanguageModelOptions): LanguageModel;
}
