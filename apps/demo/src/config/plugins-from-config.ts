/**
 * Everything a config file adds to `createAskLoop({ plugins })`: its agents
 * (as one plugin named `askloop-config`), the plugin packages it names, and
 * its MCP servers (as one tool source, with `${NAME}` references in
 * `env` and `headers` filled from the environment). The built-in providers
 * and tools are the caller's to add.
 */
import { definePlugin, type AskLoopPlugin } from '@askloop/controller';
import { mcpPlugin, type McpServerConfig } from '@askloop/mcp';
import type { AskLoopConfig } from './askloop-config.ts';
import { ConfigError } from './config-error.ts';
import { loadConfigPlugins } from './load-config-plugins.ts';
import { fillServerEnvironment } from './server-environment.ts';

/** The plugins of `config`, in order: its agents, its plugin packages, its MCP servers. */
export async function pluginsFromConfig(config: AskLoopConfig, env: Readonly<Record<string, string | undefined>>): Promise<AskLoopPlugin[]> {
  const plugins: AskLoopPlugin[] = [];
  if (Object.keys(config.agents).length > 0) plugins.push(definePlugin({ name: 'askloop-config', specificationVersion: 'v1', agents: config.agents }));
  plugins.push(...(await loadConfigPlugins(config)));
  const names = Object.keys(config.mcpServers);
  if (names.length > 0) {
    const servers: Record<string, McpServerConfig> = {};
    for (const name of names) servers[name] = withEnvironment(name, config.mcpServers[name] as McpServerConfig, env, config.file);
    plugins.push(mcpPlugin({ servers }));
  }
  return plugins;
}

function withEnvironment(name: string, server: McpServerConfig, env: Readonly<Record<string, string | undefined>>, file: string): McpServerConfig {
  const filled = fillServerEnvironment(server, env);
  if ('problem' in filled) throw new ConfigError('CONFIG_INVALID', `mcpServers.${name} ${filled.problem}`, { file });
  return filled.server;
}
