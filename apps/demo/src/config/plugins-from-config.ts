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
import { fillServerEnvironment } from './server-environment.ts';
import { inServerFolder } from './server-folder.ts';

/** The plugins of `config`, in order: its agents, its plugin packages, its MCP servers. */
export async function pluginsFromConfig(config: AskLoopConfig, env: Readonly<Record<string, string | undefined>>): Promise<AskLoopPlugin[]> {
  const plugins: AskLoopPlugin[] = [];
  if (Object.keys(config.agents).length > 0) plugins.push(definePlugin({ name: 'askloop-config', specificationVersion: 'v1', agents: config.agents }));
  plugins.push(...(await loadConfigPlugins(config, { env })));
  const names = Object.keys(config.mcpServers);
  if (names.length > 0) {
    const servers: Record<string, McpServerConfig> = {};
    for (const name of names) servers[name] = withEnvironment(name, config.mcpServers[name] as McpServerConfig, env, config);
    plugins.push(mcpPlugin({ servers }));
  }
  return plugins;
}

/** The server with `${NAME}` filled from `env` and its folder resolved against the config file's (`inServerFolder`). */
function withEnvironment(name: string, server: McpServerConfig, env: Readonly<Record<string, string | undefined>>, config: AskLoopConfig): McpServerConfig {
  const filled = fillServerEnvironment(server, env);
  const placed = 'problem' in filled ? filled : inServerFolder(filled.server, config.dir, env['HOME']);
  if ('problem' in placed) throw new ConfigError('CONFIG_INVALID', `mcpServers.${name} ${placed.problem}`, { file: config.file });
  return placed.server;
}
