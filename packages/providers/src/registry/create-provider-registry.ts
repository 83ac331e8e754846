import { modelNotFound } from '../errors/model-not-found.ts';
import { ProviderError } from '../errors/provider-error.ts';
import { describeKind, isRecord, providerNameProblem } from '../call/provider-definition-check.ts';
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
  checkRegistryArguments(providers, options);
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
    if (typeof id !== 'string') {
      throw new ProviderError({ code: 'PROVIDER_NOT_FOUND', message: `a model id is text like provider${separator}model, got ${describeKind(id)}; providers: ${providerNames.join(', ') || '(none)'}` });
    }
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

/**
 * `PROVIDER_CONFIG` for what cannot be a registry: a list of providers (its entries were registered as `0`, `1`, …),
 * an entry that is no provider (it failed on the first id naming it, `found.languageModel is not a function`), a
 * name no id can reach, or a separator that is not text.
 */
function checkRegistryArguments(providers: unknown, options: unknown): void {
  const refuse = (message: string) => new ProviderError({ code: 'PROVIDER_CONFIG', message: `createProviderRegistry: ${message}` });
  if (!isRecord(providers)) {
    throw refuse(`takes providers by the name used in ids, { openai, local: createOpenAICompatibleProvider(…) }, got ${describeKind(providers)}${Array.isArray(providers) ? '; name each one: { name: provider }' : ''}`);
  }
  for (const [name, provider] of Object.entries(providers)) {
    const nameProblem = providerNameProblem(name);
    if (nameProblem !== undefined) throw refuse(nameProblem);
    if (!isRecord(provider) || typeof provider['languageModel'] !== 'function') {
      throw refuse(`'${name}' must be a provider (an object with languageModel(modelId), such as openai or createOllamaProvider()), got ${describeKind(provider)}`);
    }
  }
  if (!isRecord(options)) throw refuse(`its options are an object { separator? }, got ${describeKind(options)}`);
  for (const key of Object.keys(options)) if (key !== 'separator') throw refuse(`there is no option '${key}' (the only option is separator)`);
  if (options['separator'] !== undefined && (typeof options['separator'] !== 'string' || options['separator'] === '')) {
    throw refuse(`separator must be non-empty text such as ':', got ${describeKind(options['separator'])}`);
  }
}
