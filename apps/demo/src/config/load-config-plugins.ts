/**
 * Imports the plugins a config file names and checks each default export is
 * an AskLoop plugin (`specificationVersion: 'v1'`, a name, and fields of the
 * shape the loop needs). A default export that is a function is a plugin
 * factory and is called with no arguments (`export default function
 * acmePlugin(settings = {}) {…}`; an async one is awaited). So a
 * third party's provider or tool pack works in `askloop run` with no change
 * to AskLoop: install the package next to the config and name it.
 */
import { pluginShapeProblem, type AskLoopPlugin } from '@askloop/controller';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AskLoopConfig } from './askloop-config.ts';
import { ConfigError } from './config-error.ts';
import { pluginFailureLocation } from './plugin-failure-location.ts';
import { resolvePluginEntry } from './resolve-plugin-entry.ts';

/** Options of {@link loadConfigPlugins}. */
export interface LoadConfigPluginsOptions {
  /** Where to resolve plugins from when the config has no folder (it always has one when loaded from a file). */
  readonly cwd?: string;
}

/** Why a value is not a plugin, or undefined when it is one. */
function pluginProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return `its default export is ${value === null ? 'null' : typeof value}, not a plugin object`;
  const plugin = value as Partial<AskLoopPlugin>;
  if (typeof plugin.name !== 'string' || plugin.name === '') return 'its default export has no name';
  if (plugin.specificationVersion !== 'v1') return `its default export has specificationVersion ${JSON.stringify(plugin.specificationVersion ?? null)}; this askloop understands 'v1' (update the plugin or askloop)`;
  // Its fields too, as the controller checks them: here the message can point at the config's entry.
  const shape = pluginShapeProblem(value);
  return shape === undefined ? undefined : `plugin '${plugin.name}': ${shape}`;
}

/**
 * What to do when a plugin could not import an AskLoop package (its peer, `@askloop/controller` for `definePlugin`):
 * install it where the importing file finds it, in a `node_modules` in or above that file's folder. Node resolves a
 * plugin's imports from its real path, so for a plugin linked from a folder (what `npm install /path/to/folder`
 * makes) that is the folder's own tree, not the config's.
 */
function missingPeerHint(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const found = error instanceof Error && code === 'ERR_MODULE_NOT_FOUND' ? /Cannot find package '(@askloop\/[^']+)' imported from (.+?)\s*$/m.exec(error.message) : null;
  if (found === null) return '';
  const [, missing, importer] = found as unknown as [string, string, string];
  const folder = dirname(importer.startsWith('file://') ? fileURLToPath(importer) : importer);
  return `; install ${missing} (the plugin's peer) where that file finds it, in a node_modules folder in or above ${folder} (a plugin linked from a folder, as npm install /path/to/its/folder links it, finds its imports from there, not from the config's folder)`;
}

/** Imports every plugin of `config.plugins`, in order. Throws `CONFIG_PLUGIN_NOT_FOUND` or `CONFIG_PLUGIN_INVALID` pointing at the entry in the file. */
export async function loadConfigPlugins(config: AskLoopConfig, options: LoadConfigPluginsOptions = {}): Promise<AskLoopPlugin[]> {
  const plugins: AskLoopPlugin[] = [];
  for (const [index, specifier] of config.plugins.entries()) {
    const where = { file: config.file, ...config.pluginLocations[index] };
    const entry = resolvePluginEntry(specifier, config.dir === '' ? (options.cwd ?? process.cwd()) : config.dir);
    if ('problem' in entry) throw new ConfigError('CONFIG_PLUGIN_NOT_FOUND', `plugin '${specifier}': ${entry.problem}`, where);
    let exported: unknown;
    try {
      const module = (await import(pathToFileURL(entry.path).href)) as { default?: unknown };
      // A factory may be async (it awaits a dynamic import, say): what it resolves to is the plugin.
      exported = typeof module.default === 'function' ? await (module.default as () => unknown)() : module.default;
    } catch (error) {
      throw new ConfigError('CONFIG_PLUGIN_INVALID', `plugin '${specifier}' failed to load: ${error instanceof Error ? error.message : String(error)}${pluginFailureLocation(error, entry.path)}${missingPeerHint(error)}`, where);
    }
    const problem = pluginProblem(exported);
    if (problem !== undefined) throw new ConfigError('CONFIG_PLUGIN_INVALID', `plugin '${specifier}' (${entry.path}): ${problem}; a plugin package default-exports definePlugin({ name, specificationVersion: 'v1', … })`, where);
    plugins.push(exported as AskLoopPlugin);
  }
  return plugins;
}
