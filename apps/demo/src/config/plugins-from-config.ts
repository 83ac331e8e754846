/**
 * Everything a config file adds to `createAskLoop({ plugins })`: its agents
 * (as one plugin named `askloop-config`), the plugin packages it names, and
 * its MCP servers (as one tool source, with `${NAME}` references in
 * `env` and `headers` filled from the environment, each stdio server started
 * in its `cwd` relative to the file's folder, or in that folder). The built-in providers
 * and tools are the caller's to add.
 */
import { definePlugin, type AskLoopPlugin } from '@askloop/controller';
import { mcpPlugin, type McpServerConfig } from '@askloop/mcp';
import type { AskLoopConfig } from './askloop-config.ts';
import { ConfigError } from './config-error.ts';
import { loadConfigPlugins } from './load-config-plugins.ts';
import { rememberPluginOrigins, type PluginOrigin } from './plugin-origin.ts';
import { fillServerEnvironment } from './server-environment.ts';
import { inServerFolder } from './server-folder.ts';

/**
 * The plugins of `config`, in order: its agents, its plugin packages, its MCP servers. Where each came from is
 * remembered (`pluginOriginAt`), so a clash the controller finds is reported at the entry.
 */
export async function pluginsFromConfig(config: AskLoopConfig, env: Readonly<Record<string, string | undefined>>): Promise<AskLoopPlugin[]> {
  const loaded: { plugin: AskLoopPlugin; origin: PluginOrigin }[] = [];
  const { file } = config;
  if (Object.keys(config.agents).length > 0) loaded.push({ plugin: definePlugin({ name: 'askloop-config', specificationVersion: 'v1', agents: config.agents }), origin: { kind: 'agents', file } });
  // One plugin for each entry, in the entries' order.
  for (const [index, plugin] of (await loadConfigPlugins(config, { env })).entries()) {
    const entry = config.plugins[index] as AskLoopConfig['plugins'][number];
    loaded.push({ plugin, origin: { kind: 'entry', file, index, package: entry.package, line: entry.line, column: entry.column } });
  }
  const names = Object.keys(config.mcpServers);
  if (names.length > 0) {
    const servers: Record<string, McpServerConfig> = {};
    for (const name of names) servers[name] = withEnvironment(name, config.mcpServers[name] as McpServerConfig, env, config);
    loaded.push({ plugin: mcpPlugin({ servers }), origin: { kind: 'mcpServers', file } });
  }
  rememberPluginOrigins(loaded);
  return loaded.map(({ plugin }) => plugin);
}

/** The server with `${NAME}` filled from `env` and its folder resolved against the config file's (`inServerFolder`). */
function withEnvironment(name: string, server: McpServerConfig, env: Readonly<Record<string, string | undefined>>, config: AskLoopConfig): McpServerConfig {
  const filled = fillServerEnvironment(server, env);
  const placed = 'problem' in filled ? filled : inServerFolder(filled.server, config.dir, env['HOME']);
  if ('problem' in placed) throw new ConfigError('CONFIG_INVALID', `mcpServers.${name} ${placed.problem}`, { file: config.file });
  return placed.server;
}
