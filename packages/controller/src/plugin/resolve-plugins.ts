/**
 * Resolves the plugin list once, at `createAskLoop`: checks names and the
 * specification version, and builds the provider registry, the static tool
 * packs, the tool sources, the agents and the hook list. Every problem — a
 * clash, a field of the wrong shape (`plugin-shape.ts`) — is a
 * `LOOP_PLUGIN_INVALID` naming the plugin.
 */
import { createProviderRegistry, type Provider, type ProviderRegistry } from '@askloop/providers';
import type { ToolPack } from '@askloop/tools';
import type { AgentDefinition } from '../agent/agent-definition.ts';
import { LoopError } from '../errors/loop-error.ts';
import type { AskLoopPlugin, LoopHooks, ToolSource } from './plugin.ts';
import { described, pluginFieldsProblem } from './plugin-shape.ts';

/** A plugin's hooks with its name, in plugin order. */
export interface NamedHooks {
  readonly plugin: string;
  readonly hooks: LoopHooks;
}

/** What the plugins contribute, resolved. */
export interface ResolvedPlugins {
  readonly providers: ProviderRegistry;
  /** The plugin that contributed each provider, by provider name: named when a provider is found malformed later. */
  readonly providerPlugins: ReadonlyMap<string, string>;
  readonly toolPacks: readonly ToolPack[];
  /** The plugin that contributed each static tool pack and tool (canonical name): named when a tool source's clashes. */
  readonly toolOwners: { readonly packs: ReadonlyMap<string, string>; readonly tools: ReadonlyMap<string, string> };
  readonly toolSources: readonly { readonly plugin: string; readonly source: ToolSource }[];
  readonly agents: ReadonlyMap<string, AgentDefinition>;
  readonly hooks: readonly NamedHooks[];
}

/** Which plugin a problem is about: its name when it has one, its position in the list, and in a clash the earlier one's. */
interface Blame {
  readonly plugin?: string;
  readonly pluginIndex: number;
  readonly clashIndex?: number;
}

const invalid = (message: string, blame: Blame): LoopError => new LoopError({ code: 'LOOP_PLUGIN_INVALID', message, ...blame });

/**
 * Records `plugin` (at `index`) as the owner of `name`, or throws naming the plugin that already is (`indexes`: each
 * plugin's position). `shown` is the name as its author wrote it (a tool's display name, `tool.str.ToUpper`, where
 * `name` is the canonical lower-case one the clash is found by).
 */
function claim(owners: Map<string, string>, what: string, name: string, plugin: string, index: number, indexes: ReadonlyMap<string, number>, shown = name): void {
  const owner = owners.get(name);
  if (owner !== undefined) {
    throw invalid(`${what} '${shown}' of plugin '${plugin}' is already contributed by plugin '${owner}'; names are unique across the plugins: give one of them another name`, { plugin, pluginIndex: index, ...clashWith(indexes, owner) });
  }
  owners.set(name, plugin);
}

const clashWith = (indexes: ReadonlyMap<string, number>, owner: string): { clashIndex?: number } => {
  const clashIndex = indexes.get(owner);
  return clashIndex === undefined ? {} : { clashIndex };
};

/** Why the list's entry `index` is no plugin object with a name: a factory not called (`acmePlugin` for `acmePlugin()`) most of all. */
function namelessPlugin(plugin: unknown, index: number): string {
  const at = `plugins[${index}]`;
  if (typeof plugin === 'function') {
    const called = plugin.name === '' ? 'it' : `${plugin.name}()`;
    return `${at} is a function, not a plugin: a plugin module's export is often a factory; call it (${called}) and pass what it returns`;
  }
  // An async factory's result passed without `await`: it has no name only because it is not the plugin yet.
  if (described(plugin) === 'a promise') return `${at} is a promise, not a plugin: an async plugin factory's result must be awaited; pass what it resolves to (await acmePlugin(options))`;
  if (typeof plugin !== 'object' || plugin === null) return `${at} is ${plugin === null ? 'null' : plugin === undefined ? 'undefined' : `a ${typeof plugin}`}, not a plugin; build one with definePlugin({ name, specificationVersion: 'v1', … })`;
  return `${at} has no name; give it one with definePlugin({ name, specificationVersion: 'v1', … })`;
}

/** Validates and merges the plugins. Throws `LOOP_PLUGIN_INVALID`. */
export function resolvePlugins(plugins: readonly AskLoopPlugin[]): ResolvedPlugins {
  /** Each plugin name and the index of its entry. */
  const pluginIndexes = new Map<string, number>();
  const providerOwners = new Map<string, string>();
  const packOwners = new Map<string, string>();
  const toolOwners = new Map<string, string>();
  // Without the names of tool sources, which share the packs' namespace above: a source may list a pack of its own name.
  const staticPackOwners = new Map<string, string>();
  const agentOwners = new Map<string, string>();
  const providers: Record<string, Provider> = {};
  const toolPacks: ToolPack[] = [];
  const toolSources: { plugin: string; source: ToolSource }[] = [];
  const agents = new Map<string, AgentDefinition>();
  const hooks: NamedHooks[] = [];
  for (const [index, plugin] of plugins.entries()) {
    if (typeof plugin !== 'object' || plugin === null || typeof plugin.name !== 'string' || plugin.name === '') throw invalid(namelessPlugin(plugin, index), { pluginIndex: index });
    const name = plugin.name;
    // The same plugin listed twice is the common case of a clash of plugin names: say that, not "contributed by".
    const earlier = pluginIndexes.get(name);
    if (earlier !== undefined) throw invalid(`plugin '${name}' is listed twice (plugins[${earlier}] and plugins[${index}]); list each plugin once, or give the second another name`, { plugin: name, pluginIndex: index, clashIndex: earlier });
    pluginIndexes.set(name, index);
    const blame = { plugin: name, pluginIndex: index };
    if (plugin.specificationVersion !== 'v1') {
      throw invalid(`plugin '${name}' has specificationVersion ${JSON.stringify(plugin.specificationVersion)}; this controller knows 'v1'`, blame);
    }
    // Plain data from a third party's module: checked before any of it is used (a bad field would fail mid-turn).
    const problem = pluginFieldsProblem(plugin as unknown as Readonly<Record<string, unknown>>);
    if (problem !== undefined) throw invalid(`plugin '${name}': ${problem}`, blame);
    for (const [key, provider] of Object.entries(plugin.providers ?? {})) {
      if (provider.name !== key) throw invalid(`plugin '${name}' registers provider '${provider.name}' under the key '${key}'; the key must equal provider.name`, blame);
      claim(providerOwners, 'provider', key, name, index, pluginIndexes);
      providers[key] = provider;
    }
    for (const pack of plugin.toolPacks ?? []) {
      claim(packOwners, 'tool pack', pack.name, name, index, pluginIndexes);
      staticPackOwners.set(pack.name, name);
      for (const tool of pack.tools) claim(toolOwners, 'tool', tool.spec.name, name, index, pluginIndexes, tool.spec.displayName);
      toolPacks.push(pack);
    }
    for (const source of plugin.toolSources ?? []) {
      claim(packOwners, 'tool source', source.name, name, index, pluginIndexes);
      toolSources.push({ plugin: name, source });
    }
    for (const [key, agent] of Object.entries(plugin.agents ?? {})) {
      if (agent.name !== key) throw invalid(`plugin '${name}' registers agent '${agent.name}' under the key '${key}'; the key must equal the agent's name`, blame);
      claim(agentOwners, 'agent', key, name, index, pluginIndexes);
      agents.set(key, agent);
    }
    if (plugin.hooks !== undefined) hooks.push({ plugin: name, hooks: plugin.hooks });
  }
  return { providers: createProviderRegistry(providers), providerPlugins: providerOwners, toolPacks, toolOwners: { packs: staticPackOwners, tools: toolOwners }, toolSources, agents, hooks };
}
