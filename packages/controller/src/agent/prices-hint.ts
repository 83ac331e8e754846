/**
 * Where to give a model prices, for the refusal of a cost ceiling that a model without them could never reach.
 *
 * Only the built-in providers take prices from `builtinPlugin({ providerSettings })`, and so from
 * `askloop.config.yaml`'s `providers:` (which refuses any other name): sending the user of a plugin's provider
 * there sent them to a key the file then refused. Another provider takes its prices where it is made, in its
 * plugin (and so through the options the plugin takes). As in the providers' timeout hint, a provider under a
 * built-in name may still be a plugin's, so that case names both places.
 */
import { BUILTIN_PROVIDERS } from '../plugin/builtin-plugin.ts';
import { splitModelId } from './split-model-id.ts';

/** The hint for `modelId`'s provider, in parentheses; `owners` names the plugin of each provider name. */
export function pricesHint(modelId: string, owners: ReadonlyMap<string, string>): string {
  const { provider, model } = splitModelId(modelId);
  const plugin = owners.get(provider);
  const byId = `by model id, here '${model}'`;
  if (Object.hasOwn(BUILTIN_PROVIDERS, provider)) {
    return `(its prices setting, ${byId}: builtinPlugin({ providerSettings: { ${provider}: { prices } } }); for the askloop command, providers.${provider}.prices in askloop.config.yaml; for a plugin's provider of that name, where its plugin makes it)`;
  }
  const of = plugin === undefined ? '' : ` of plugin '${plugin}'`;
  return `(provider '${provider}'${of} takes its prices where it is made: its prices setting, ${byId}, as defineProvider({ settings: { prices } }) or createOpenAICompatibleProvider({ prices }) take it; for the askloop command, through the plugin's options when it offers one; askloop.config.yaml's providers: sets the built-in providers only)`;
}
