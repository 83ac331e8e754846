import { modelNotFound } from '../errors/model-not-found.ts';
import { ProviderError } from '../errors/provider-error.ts';
import type { LanguageModel } from '../model/language-model.ts';
import type { LanguageModelOptions, Provider } from '../model/provider.ts';

/** Models by `provider:model` id, from a set of provider plugins. */
export interface ProviderRegistry {
  /** `registry.languageModel('openai:gpt-4.1-mini')`; the model id may itself contain the separator (`ollama:qwen3:8b`). */
  languageModel(id: string, options?: LanguageModelOptions): LanguageModel;
  /** The provider registered under `name`. */
  provider(name: string): Provider;
  /** Registered provider names, sorted. */
  readonly providerNames: readonly string[];
}

/** Options of {@link createProviderRegistry}. */
export interface ProviderRegistryOptions {
  /** Between provider and model id; default `:`. */
  separator?: string | undefined;
}

/**
 * Creates a registry from providers keyed by the name used in ids, in the
 * style of the AI SDK's `createProviderRegistry`. Unknown names and ids give
 * `PROVIDER_NOT_FOUND` / `PROVIDER_MODEL_NOT_FOUND` listing what exists.
 */
export function createProviderRegistry(providers: Record<string, Provider>, options: ProviderRegistryOptions = {}): ProviderRegistry {
  const separator = options.separator ?? ':';
  const table = new Map(Object.entries(providers));
  const providerNames = [...table.keys()].sort();
  const provider = (name: string): Provider => {
    const found = table.get(name);
    if (found === undefined) {
      throw new ProviderError({
        code: 'PROVIDER_NOT_FOUND',
        provider: name,
        message: `unknown provider "${name}"; available: ${providerNames.join(', ') || '(none)'}`,
      });
    }
    return found;
  };
  const languageModel = (id: string, modelOptions?: LanguageModelOptions): LanguageModel => {
    const index = id.indexOf(separator);
    if (index <= 0 || index === id.length - separator.length) {
      throw new ProviderError({
        code: 'PROVIDER_NOT_FOUND',
        message: `model id "${id}" must look like provider${separator}model; providers: ${providerNames.join(', ') || '(none)'}`,
      });
    }
    const name = id.slice(0, index);
    const modelId = id.slice(index + separator.length);
    const found = provider(name);
    if (found.modelIds !== undefined && !found.modelIds.includes(modelId)) throw modelNotFound(name, modelId, found.modelIds);
    return found.languageModel(modelId, modelOptions);
  };
  return { languageModel, provider, providerNames };
}
