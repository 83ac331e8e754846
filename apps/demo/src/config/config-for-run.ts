/**
 * What a loop command (`run`, `demo`, `resume`, `approve`, `deny`, `replay`)
 * takes from the config file in use (`--config FILE`, else
 * ./askloop.config.yaml when present): the plugins to add to the controller
 * (the file's agents, its plugin packages, its MCP servers), the agent that
 * `--agent NAME` names, and the sessions file of `store.path`.
 */
import type { AgentDefinition, AskLoopPlugin, BuiltinProviderSettings } from '@askloop/controller';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CommandIo } from '../io.ts';
import type { AgentDefaults } from './askloop-config.ts';
import type { HttpSettings } from './http-settings-schema.ts';
import { CliError } from '../cli-error.ts';
import { CONFIG_FILE_NAME, discoverConfigPath } from './discover-config.ts';
import { loadConfig } from './load-config.ts';
import { configSecretNames } from './config-secret-names.ts';
import { noteSecretNames } from '../known-secret-names.ts';
import { modelPlace, type ModelPlace } from './model-place.ts';
import { storePlace, type StorePlace } from './store-place.ts';
import { pluginsFromConfig } from './plugins-from-config.ts';

/** The parts of a config a loop command uses; empty without a config file. */
export interface RunConfig {
  /** The config file used, if any. */
  readonly file?: string;
  /** Plugins to pass to `createAskLoop` besides the built-in ones. */
  readonly plugins: readonly AskLoopPlugin[];
  /** The definition `--agent NAME` names (from the file's agents or a plugin's), when NAME is not a file. */
  readonly agent?: AgentDefinition;
  /** `providers:`: settings of the built-in providers, for `builtinPlugin({ providerSettings })`. */
  readonly providers?: BuiltinProviderSettings;
  /** `http:`: settings of `tool.http.Fetch`, for `builtinPlugin({ http })`. */
  readonly http?: HttpSettings;
  /** The config's model, settings, quotas and ceilings: the agent of a run without `--agent` starts from them. */
  readonly defaults?: AgentDefaults;
  /** `store.path`, absolute. */
  readonly storePath?: string;
  /** `store: postgres://…`, when the config names a PostgreSQL server instead of a file. */
  readonly storeUrl?: string;
  /** Where the store is written (`store`, `store.path`), so a store that cannot be opened is reported at its line. */
  readonly storePlace?: StorePlace;
  /** Where the model of the agent run is written (`models.default`, `agents.NAME.model`); none for an agent file. */
  readonly modelPlace?: ModelPlace;
}

/**
 * Loads the config in use and its plugins. `agent` is the `--agent` value: a
 * path to an existing file stays an agent file (the caller reads it);
 * otherwise a NAME (no folder, no .json/.yaml ending) must name an agent of
 * the config or of one of its plugins: `LOOP_AGENT_NOT_FOUND` lists the
 * names, or says that no config file was found.
 */
export async function configForRun(options: { config?: string | undefined; agent?: string | undefined }, io: CommandIo): Promise<RunConfig> {
  const path = discoverConfigPath(options.config, io.cwd);
  const name = options.agent;
  // A NAME with no config to look it up in: reading it as a file would only say "no such file".
  if (path === undefined && name !== undefined && looksLikeName(name) && !existsSync(resolve(io.cwd, name))) {
    throw agentNotFound(`--agent ${name}: no agent file '${name}' in ${io.cwd}, and no ${CONFIG_FILE_NAME} there to take an agent NAME from; run from the folder of the config file, pass --config FILE, or give the path of an agent file (JSON or YAML)`);
  }
  if (path === undefined) return { plugins: [] };
  const config = await loadConfig(path);
  // Before its plugins load: a variable the file hands to an MCP server or a plugin (`configSecretNames`) is a secret in whatever this command says from here on.
  noteSecretNames(io, configSecretNames(config, io.env));
  const plugins = await pluginsFromConfig(config, io.env);
  const place = storePlace(config);
  const base = { file: path, plugins, providers: config.providers, http: config.http, defaults: config.defaults, ...(config.storePath === undefined ? {} : { storePath: config.storePath }), ...(config.storeUrl === undefined ? {} : { storeUrl: config.storeUrl }), ...(place === undefined ? {} : { storePlace: place }) };
  // A path (agents/x.yaml) that is missing is reported by the file read, as any missing file is.
  if (name === undefined) return withModelPlace(base, modelPlace(config, undefined));
  if (!looksLikeName(name) || existsSync(resolve(io.cwd, name))) return base;
  const agents = new Map<string, AgentDefinition>();
  for (const plugin of plugins) for (const [key, definition] of Object.entries(plugin.agents ?? {})) if (!agents.has(key)) agents.set(key, definition);
  const agent = agents.get(name);
  if (agent === undefined) {
    const known = [...agents.keys()];
    const listed = known.length === 0 ? '; it defines none: add one under agents:' : ` (agents: ${known.join(', ')}); use one of them or add '${name}' under agents:`;
    throw agentNotFound(`--agent ${name}: no such file, and no agent '${name}' in ${path} or its plugins${listed}`, path);
  }
  // The config's own agents come first (pluginsFromConfig): a plugin's agent of the same name is not this one.
  return withModelPlace({ ...base, agent }, Object.hasOwn(config.agents, name) ? modelPlace(config, name) : undefined);
}

function withModelPlace(config: RunConfig, place: ModelPlace | undefined): RunConfig {
  return place === undefined ? config : { ...config, modelPlace: place };
}

/** An `--agent` value that names an agent rather than a file: no folder, no .json/.yaml/.yml ending. */
function looksLikeName(value: string): boolean {
  return !/[\\/]/.test(value) && !/\.(json|ya?ml)$/i.test(value);
}

/**
 * `LOOP_AGENT_NOT_FOUND` (exit 1), the code the controller gives an agent
 * name no plugin defines (its README), naming the config looked in.
 */
function agentNotFound(message: string, file?: string): CliError {
  return CliError.fromLoopError({ code: 'LOOP_AGENT_NOT_FOUND', message }, file);
}
