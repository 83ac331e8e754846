/**
 * `--config FILE` of `askloop ns run|check|tools`: the tools of a config
 * file's plugins — their tool packs, and their tool sources (the config's
 * `mcpServers`, a plugin's own sources) — beside the built-in ones, so a
 * plugin author checks and runs programs against their pack as the loop
 * commands load it. Read only when given: a config found in the folder is
 * not, since starting its MCP servers on every `ns check` would surprise.
 */
import { checkPlugins, type AskLoopPlugin, type ToolSource } from '@askloop/controller';
import type { ToolPack } from '@askloop/tools';
import type { CommandIo } from '../../io.ts';
import type { HttpSettings } from '../../config/http-settings-schema.ts';
import { discoverConfigPath } from '../../config/discover-config.ts';
import { loadConfig } from '../../config/load-config.ts';
import { configSecretNames } from '../../config/config-secret-names.ts';
import { noteSecretNames } from '../../known-secret-names.ts';
import { pluginsFromConfig } from '../../config/plugins-from-config.ts';
import { pluginToolCapabilities } from '../../options/check-grant-resources.ts';
import { asCliLoopError } from '../../loop/open-session-loop.ts';
import { askloopPlugins } from '../../loop/askloop-plugins.ts';

/** `parseArgs` option definition of `--config`. */
export const CONFIG_TOOLS_OPTION = { config: { type: 'string' } } as const;

/** Usage text of `--config`. */
export const CONFIG_TOOLS_USAGE = `  --config FILE     add the tools of the plugins and MCP servers of FILE (an
                    askloop.config.yaml), as the loop commands load them;
                    they need --allow and --grant as any tool does. Read
                    only when given.`;

/** What a config file's plugins add to the tools of an `ns` command. */
export interface ConfigTools {
  /** The config file, absolute. */
  readonly file: string;
  /** The plugins' tool packs. */
  readonly packs: readonly ToolPack[];
  /** The plugins' tool sources (the config's MCP servers are one), listed when the command starts. */
  readonly sources: readonly ToolSource[];
  /** The capabilities the packs' tools declare: a `--grant` may name their resources. */
  readonly capabilities: readonly string[];
  /** `http:`: settings of `tool.http.Fetch` (`specialAddresses`), for `--http`. */
  readonly http: HttpSettings;
}

/** Loads `--config FILE`'s plugins (a problem is the config's error, with its file and line), or undefined without it. */
export async function loadConfigTools(file: string | undefined, io: CommandIo): Promise<ConfigTools | undefined> {
  if (file === undefined) return undefined;
  // Given a path, it returns it or throws CONFIG_UNREADABLE.
  const path = discoverConfigPath(file, io.cwd) as string;
  const config = await loadConfig(path);
  // Before its plugins load: a variable the file hands to an MCP server or a plugin (`configSecretNames`) is a secret in whatever this command says from here on.
  noteSecretNames(io, configSecretNames(config, io.env));
  const plugins = await pluginsFromConfig(config, io.env);
  refuseWhatRunRefuses(plugins);
  return {
    file: path,
    packs: plugins.flatMap((plugin) => plugin.toolPacks ?? []),
    sources: plugins.flatMap((plugin) => plugin.toolSources ?? []),
    capabilities: pluginToolCapabilities(plugins),
    http: config.http,
  };
}

/**
 * Refuses the config's plugins as `askloop run` does: the controller's own check of the list a run's controller is
 * given (`checkPlugins`, askloop's plugins first), so a clash of any name (plugin, provider, tool pack, tool, tool
 * source, agent) or a provider or agent filed under another key is the same `LOOP_PLUGIN_INVALID`, said at the same
 * entry of the file. Nothing starts: the MCP servers are listed later, by the command.
 */
function refuseWhatRunRefuses(plugins: readonly AskLoopPlugin[]): void {
  const list = [...askloopPlugins(), ...plugins];
  try {
    checkPlugins(list);
  } catch (error) {
    asCliLoopError(error, list);
  }
}
