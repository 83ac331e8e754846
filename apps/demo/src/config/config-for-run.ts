/**
 * What a loop command (`run`, `demo`, `resume`, `approve`, `deny`, `replay`)
 * takes from the config file in use (`--config FILE`, else
 * ./askloop.config.yaml when present): the plugins to add to the controller
 * (the file's agents, its plugin packages, its MCP servers), the agent that
 * `--agent NAME` names, and the sessions file of `store.path`.
 */
import type { AgentDefinition, AskLoopPlugin } from '@askloop/controller';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CommandIo } from '../io.ts';
import type { AgentDefaults } from './askloop-config.ts';
import { ConfigError } from './config-error.ts';
import { discoverConfigPath } from './discover-config.ts';
import { loadConfig } from './load-config.ts';
import { pluginsFromConfig } from './plugins-from-config.ts';

/** The parts of a config a loop command uses; empty without a config file. */
export interface RunConfig {
  /** The config file used, if any. */
  readonly file?: string;
  /** Plugins to pass to `createAskLoop` besides the built-in ones. */
  readonly plugins: readonly AskLoopPlugin[];
  /** The definition `--agent NAME` names (from the file's agents or a plugin's), when NAME is not a file. */
  readonly agent?: AgentDefinition;
  /** The config's model, settings, quotas and ceilings: the agent of a run without `--agent` starts from them. */
  readonly defaults?: AgentDefaults;
  /** `store.path`, absolute. */
  readonly storePath?: string;
  /** `store: postgres://…`, when the config names a PostgreSQL server instead of a file. */
  readonly storeUrl?: string;
}

/**
 * Loads the config in use and its plugins. `agent` is the `--agent` value: a
 * path to an existing file stays an agent file (the caller reads it);
 * otherwise, with a config, it must name an agent of the config or of one of
 * its plugins (`CONFIG_INVALID` lists the names).
 */
export async function configForRun(options: { config?: string | undefined; agent?: string | undefined }, io: CommandIo): Promise<RunConfig> {
  const path = discoverConfigPath(options.config, io.cwd);
  if (path === undefined) return { plugins: [] };
  const config = await loadConfig(path);
  const plugins = await pluginsFromConfig(config, io.env);
  const base = { file: path, plugins, defaults: config.defaults, ...(config.storePath === undefined ? {} : { storePath: config.storePath }), ...(config.storeUrl === undefined ? {} : { storeUrl: config.storeUrl }) };
  const name = options.agent;
  if (name === undefined || existsSync(resolve(io.cwd, name))) return base;
  const agents = new Map<string, AgentDefinition>();
  for (const plugin of plugins) for (const [key, definition] of Object.entries(plugin.agents ?? {})) if (!agents.has(key)) agents.set(key, definition);
  const agent = agents.get(name);
  if (agent === undefined) {
    const known = [...agents.keys()];
    throw new ConfigError('CONFIG_INVALID', `--agent ${name}: no such file, and no agent '${name}' in ${path} or its plugins${known.length === 0 ? '' : ` (agents: ${known.join(', ')})`}`, { file: path });
  }
  return { ...base, agent };
}
