/**
 * A session's model, made by the provider a plugin contributed. The provider
 * is third-party code: its `languageModel` may throw something that is no
 * `ProviderError`, or return `null` or a promise. Either would otherwise
 * surface far from its cause — a bare `TypeError` ("Cannot read properties
 * of null") out of `run`, or a halt saying `generate is not a function` —
 * naming neither the plugin nor what to fix. Here each is a `LoopError` that
 * names the plugin and `providers.<name>.languageModel`.
 */
import { isProviderError, type LanguageModel, type ProviderRegistry } from '@askloop/providers';
import { splitModelId } from '../agent/split-model-id.ts';
import { LoopError } from '../errors/loop-error.ts';
import { pluginError } from './call-hook.ts';
import { described } from './plugin-shape.ts';

/** Why `model` is not a `LanguageModel` the loop can call, or undefined. */
function modelProblem(model: unknown): string | undefined {
  const kind = described(model);
  if (kind === 'a promise') return 'a promise; languageModel must return the model itself, synchronously (load an SDK inside generate, not before returning)';
  if (typeof model !== 'object' || model === null || Array.isArray(model)) return `${kind}, not a model`;
  const generate = (model as { generate?: unknown }).generate;
  if (typeof generate !== 'function') return `an object whose generate is ${described(generate)}, not a function`;
  return undefined;
}

/**
 * `registry.languageModel(modelId)`, with what the plugin's provider got wrong made a `LoopError`:
 * a throw that is no `ProviderError` is `LOOP_PLUGIN_ERROR` (plugin, hook `providers.<name>.languageModel`), a return
 * that is no model `LOOP_PLUGIN_INVALID`. A `ProviderError` (an unknown provider or model id, `PROVIDER_CONFIG`) is
 * thrown as it was, for the caller to classify.
 */
export function pluginModel(registry: ProviderRegistry, providerPlugins: ReadonlyMap<string, string>, modelId: string): LanguageModel {
  const { provider: name, model: providerModel } = splitModelId(modelId);
  const plugin = providerPlugins.get(name);
  const hook = `providers.${name}.languageModel`;
  const call = `${hook}('${providerModel}')`;
  let model: unknown;
  try {
    model = registry.languageModel(modelId);
  } catch (error) {
    if (isProviderError(error) || plugin === undefined) throw error;
    throw pluginError(plugin, hook, error, call);
  }
  const problem = modelProblem(model);
  if (problem === undefined) return model as LanguageModel;
  throw new LoopError({
    code: 'LOOP_PLUGIN_INVALID',
    message: `${plugin === undefined ? '' : `plugin '${plugin}': `}${call} returned ${problem}; return a LanguageModel { provider, modelId, generate(options) }, as a provider built with defineProvider(…) does`,
    ...(plugin === undefined ? {} : { plugin }),
    hook,
  });
}
