/**
 * What is wrong with the shape of a plugin object, before anything uses it.
 * A plugin is plain data from a third party's module (often JavaScript, so
 * its types were never checked): a pack whose `tools` is missing, a provider
 * that is `null`, a tool that was not built with `defineTool` would otherwise
 * fail deep inside the loop, after a session was created, as a bare
 * `TypeError` naming neither the plugin nor the field. Each problem names the
 * field's path (`toolPacks[0].tools[2].spec.capabilities`) and what to use.
 */

import { providerNameProblem } from '@askloop/providers';
import { capabilityNeedProblem } from '@askloop/tools';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A value named by its kind, never quoted (it may be anything a plugin's code made): `missing`, `a promise`, `a list`, … */
export function described(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  // An async factory's or method's result not awaited: said as such, since "an object" hides the fix.
  if (typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function') return 'a promise';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function toolProblem(tool: unknown, at: string): string | undefined {
  if (!isRecord(tool)) return `${at} is ${described(tool)}, not a tool; build each tool with defineTool(spec, handler)`;
  if (typeof tool.handler !== 'function') return `${at}.handler is ${described(tool.handler)}, not a function; build each tool with defineTool(spec, handler)`;
  const spec = tool.spec;
  if (!isRecord(spec)) return `${at}.spec is ${described(spec)}; build each tool with defineTool(spec, handler)`;
  for (const field of ['name', 'displayName', 'description', 'effect'] as const) {
    if (typeof spec[field] !== 'string') return `${at}.spec.${field} is ${described(spec[field])}, not a string; build each tool with defineTool(spec, handler), which fills it in`;
  }
  for (const field of ['arguments', 'capabilities'] as const) {
    if (!Array.isArray(spec[field])) return `${at}.spec.${field} is ${described(spec[field])}, not a list; build each tool with defineTool(spec, handler), which fills it in`;
  }
  // A malformed need would fail only the first run of an agent allowed the tool, after its session was stored.
  for (const [index, capability] of (spec.capabilities as unknown[]).entries()) {
    const problem = capabilityNeedProblem(capability);
    if (problem !== undefined) return `${at}.spec.capabilities[${index}] (${String(spec.displayName)}): ${problem}`;
  }
  return undefined;
}

function toolPacksProblem(packs: unknown): string | undefined {
  if (!Array.isArray(packs)) return `toolPacks is ${described(packs)}, not a list of tool packs (defineToolPack(name, tools))`;
  for (const [index, pack] of packs.entries()) {
    const at = `toolPacks[${index}]`;
    if (!isRecord(pack)) return `${at} is ${described(pack)}, not a tool pack; build it with defineToolPack(name, tools)`;
    if (typeof pack.name !== 'string' || pack.name === '') return `${at}.name is ${described(pack.name)}; build the pack with defineToolPack(name, tools)`;
    if (!Array.isArray(pack.tools)) return `${at}.tools (pack '${pack.name}') is ${described(pack.tools)}, not a list; build the pack with defineToolPack(name, tools)`;
    for (const [toolIndex, tool] of pack.tools.entries()) {
      const problem = toolProblem(tool, `${at}.tools[${toolIndex}]`);
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}

function providersProblem(providers: unknown): string | undefined {
  if (!isRecord(providers)) return `providers is ${described(providers)}, not an object of providers by name ({ acme: defineProvider(…) })`;
  for (const [key, provider] of Object.entries(providers)) {
    const at = `providers.${key}`;
    // `name:model` splits at the first ':': a name with one (or none at all) could never be reached (the providers' rule).
    if (providerNameProblem(key) !== undefined) return `providers has the name ${JSON.stringify(key)}, which no 'name:model' id could reach; a provider name is not empty and holds no ':' or white space`;
    if (!isRecord(provider)) return `${at} is ${described(provider)}, not a provider; build it with defineProvider(…)`;
    if (typeof provider.name !== 'string') return `${at}.name is ${described(provider.name)}, not a string; build the provider with defineProvider(…)`;
    if (typeof provider.languageModel !== 'function') return `${at}.languageModel is ${described(provider.languageModel)}, not a function; build the provider with defineProvider(…)`;
  }
  return undefined;
}

function toolSourcesProblem(sources: unknown): string | undefined {
  if (!Array.isArray(sources)) return `toolSources is ${described(sources)}, not a list`;
  for (const [index, source] of sources.entries()) {
    const at = `toolSources[${index}]`;
    if (!isRecord(source)) return `${at} is ${described(source)}, not a tool source`;
    if (typeof source.name !== 'string' || source.name === '') return `${at}.name is ${described(source.name)}, not a name`;
    if (typeof source.toolPacks !== 'function') return `${at}.toolPacks is ${described(source.toolPacks)}, not a function returning the current tool packs`;
    if (source.close !== undefined && typeof source.close !== 'function') return `${at}.close is ${described(source.close)}, not a function`;
  }
  return undefined;
}

function agentsProblem(agents: unknown): string | undefined {
  if (!isRecord(agents)) return `agents is ${described(agents)}, not an object of agent definitions by name`;
  for (const [key, agent] of Object.entries(agents)) {
    if (!isRecord(agent)) return `agents.${key} is ${described(agent)}, not an agent definition`;
  }
  return undefined;
}

/** The fields a plugin may have, and the hooks it may give. */
const PLUGIN_FIELDS = ['name', 'specificationVersion', 'providers', 'toolPacks', 'toolSources', 'agents', 'hooks'] as const;
const HOOK_NAMES = ['turnStart', 'programChecked', 'decide', 'event'] as const;

/** Names a plugin author writes for a field the loop reads. */
const FIELD_ALIASES: Readonly<Record<string, string>> = { tools: 'toolPacks', packs: 'toolPacks', provider: 'providers', models: 'providers', agent: 'agents', hook: 'hooks' };

/** The field the loop reads that `key` was meant as: an alias, or the same name in other letters; else undefined. */
function meantField(key: string): string | undefined {
  return FIELD_ALIASES[key] ?? PLUGIN_FIELDS.find((field) => field.toLowerCase() === key.toLowerCase());
}

/** `name` among `known` as the caller most likely meant it: the same ignoring case and a leading `on`, or the one it starts. */
function meant(name: string, known: readonly string[]): string | undefined {
  const plain = name.toLowerCase().replace(/^on(?=.)/, '');
  return known.find((candidate) => candidate.toLowerCase() === plain) ?? known.find((candidate) => candidate.toLowerCase().startsWith(plain) || plain.startsWith(candidate.toLowerCase()));
}

/** An unknown field: it would be ignored, and the tool or hook it meant would be missing without a word. */
function unknownProblem(at: string, key: string, known: readonly string[], alias?: Readonly<Record<string, string>>): string {
  const guess = alias?.[key] ?? meant(key, known);
  return `${at}${key} is not a field the loop knows${guess === undefined ? '' : `; did you mean ${at}${guess}?`} (the fields: ${known.join(', ')})`;
}

function hooksProblem(hooks: unknown): string | undefined {
  if (!isRecord(hooks)) return `hooks is ${described(hooks)}, not an object of hook functions`;
  for (const [key, hook] of Object.entries(hooks)) {
    // Every function here is meant as a hook: one the loop does not call would be silently missing.
    if (hook !== undefined && !(HOOK_NAMES as readonly string[]).includes(key)) return unknownProblem('hooks.', key, HOOK_NAMES);
    if (hook !== undefined && typeof hook !== 'function') return `hooks.${key} is ${described(hook)}, not a function`;
  }
  return undefined;
}

/**
 * What is wrong with `plugin` as `createAskLoop` checks it (`LOOP_PLUGIN_INVALID`),
 * or undefined: no object (a factory not called, null), no name, another
 * specification version than `v1`, then the first field of the wrong shape
 * ({@link pluginFieldsProblem}). For a host that loads plugins itself.
 */
export function pluginShapeProblem(plugin: unknown): string | undefined {
  if (typeof plugin === 'function') return `it is a function, not a plugin: a plugin module's export is often a factory; call it${plugin.name === '' ? '' : ` (${plugin.name}())`} and use what it returns`;
  if (typeof plugin !== 'object' || plugin === null || Array.isArray(plugin)) return `it is ${plugin === null ? 'null' : Array.isArray(plugin) ? 'a list' : plugin === undefined ? 'undefined' : `a ${typeof plugin}`}, not a plugin; build one with definePlugin({ name, specificationVersion: 'v1', … })`;
  const fields = plugin as Readonly<Record<string, unknown>>;
  if (typeof fields['name'] !== 'string' || fields['name'] === '') return "it has no name; give it one with definePlugin({ name, specificationVersion: 'v1', … })";
  if (fields['specificationVersion'] !== 'v1') return `it has specificationVersion ${JSON.stringify(fields['specificationVersion']) ?? 'undefined'}; this controller knows 'v1'`;
  return pluginFieldsProblem(fields);
}

/**
 * The first problem with the fields of `plugin` (its name and specification
 * version are checked by the caller), as `<field path> is …; <what to use>`,
 * or undefined when every field present has the shape the loop needs.
 */
export function pluginFieldsProblem(plugin: Readonly<Record<string, unknown>>): string | undefined {
  // Other fields (a version, a description, helpers) are the plugin's own; only a misspelt field the loop reads is refused.
  const misspelt = Object.keys(plugin).find((key) => plugin[key] !== undefined && !(PLUGIN_FIELDS as readonly string[]).includes(key) && meantField(key) !== undefined);
  if (misspelt !== undefined) return unknownProblem('', misspelt, PLUGIN_FIELDS, FIELD_ALIASES);
  const { providers, toolPacks, toolSources, agents, hooks } = plugin;
  return (
    (providers === undefined ? undefined : providersProblem(providers)) ??
    (toolPacks === undefined ? undefined : toolPacksProblem(toolPacks)) ??
    (toolSources === undefined ? undefined : toolSourcesProblem(toolSources)) ??
    (agents === undefined ? undefined : agentsProblem(agents)) ??
    (hooks === undefined ? undefined : hooksProblem(hooks))
  );
}

/** The first problem with the packs a tool source listed (`<source>: toolPacks[i]…`), or undefined. */
export function listedPacksProblem(packs: unknown): string | undefined {
  return toolPacksProblem(packs);
}
