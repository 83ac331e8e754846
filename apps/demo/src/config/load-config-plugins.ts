/**
 * Imports the plugins a config file names and checks each default export is
 * an AskLoop plugin (`specificationVersion: 'v1'`, a name, and fields of the
 * shape the loop needs). A default export that is a function is a plugin
 * factory (`export default function acmePlugin(options = {}) {…}`; an async
 * one is awaited), called with the entry's `options` when the entry gives
 * them (`- package: NAME` with `options: { … }`), else with no arguments;
 * options given to a plugin object are refused, not dropped. So a
 * third party's provider or tool pack works in `askloop run` with no change
 * to AskLoop: install the package next to the config and name it.
 */
import { formatIssuePath, pluginShapeProblem, type AskLoopPlugin } from '@askloop/controller';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AskLoopConfig } from './askloop-config.ts';
import { ConfigError } from './config-error.ts';
import { createSecretRedactor } from '../redact-secrets.ts';
import { notPlainData } from './plain-option-data.ts';
import { pluginFailureLocation } from './plugin-failure-location.ts';
import { configSecretNames } from './config-secret-names.ts';
import { resolvePluginEntry } from './resolve-plugin-entry.ts';
import { thrownText } from './thrown-text.ts';

/** Options of {@link loadConfigPlugins}. */
export interface LoadConfigPluginsOptions {
  /** Where to resolve plugins from when the config has no folder (it always has one when loaded from a file). */
  readonly cwd?: string;
  /**
   * The environment whose keys are scrubbed from what a plugin throws as it loads (default `process.env`, the one
   * its code reads): the values of its key-like variables and of those the entry's options name (`tokenEnv: X`).
   */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/** How the module gave its default export: as it is, or as what a factory function returned. */
interface ExportOrigin {
  /** The factory's name ('' or 'default' when it has none) when the default export was a function and the value is what it returned. */
  readonly factory?: string;
  /** The module's named exports, for a module without a default export. */
  readonly named: readonly string[];
  /** The config's entry gives options, which a factory is called with. */
  readonly withOptions: boolean;
}

const WRAP_PACK = "this looks like a tool pack; wrap it: definePlugin({ name, specificationVersion: 'v1', toolPacks: [pack] })";

/** Why a value is not a plugin, or undefined when it is one. Each names the likely slip and its fix. */
function pluginProblem(value: unknown, origin: ExportOrigin): string | undefined {
  const given = origin.withOptions ? "with the entry's options" : 'with no arguments';
  const what = origin.factory === undefined ? 'its default export' : `its default export is a function${factoryName(origin)}, called ${given} as a plugin factory, and what it returned`;
  if (value === null || typeof value !== 'object') {
    const kind = value === null ? 'null' : typeof value;
    if (origin.factory === 'definePlugin') return `its default export is definePlugin itself, not called; export the plugin object: export default definePlugin({ name, specificationVersion: 'v1', … })`;
    if (origin.factory !== undefined) return `${what} is ${kind}, not a plugin object; export the plugin object (export default definePlugin({ … })), or make the function return it`;
    if (value === undefined && origin.named.length > 0) return `it has no default export (it exports ${origin.named.join(', ')}); default-export the plugin: export default definePlugin({ … })`;
    return `${what} is ${kind}, not a plugin object`;
  }
  const plugin = value as Partial<AskLoopPlugin> & { tools?: unknown; spec?: unknown; handler?: unknown; then?: unknown };
  // `export default acmePlugin()` of an async factory: it read "has no name", which hid the fix.
  if (typeof plugin.then === 'function') return `${what} is a promise, not a plugin object; export the async factory itself (export default acmePlugin), which askloop calls and awaits, or the plugin object`;
  // What an author has in hand before the plugin: a pack (defineToolPack's result) or one tool (defineTool's).
  if (plugin.specificationVersion === undefined && Array.isArray(plugin.tools)) return `${what}: ${WRAP_PACK}`;
  if (plugin.specificationVersion === undefined && typeof plugin.spec === 'object' && typeof plugin.handler === 'function') {
    return `${what}: this looks like one tool (what defineTool returns); put it in a pack and the pack in a plugin: definePlugin({ name, specificationVersion: 'v1', toolPacks: [defineToolPack(name, [tool])] })`;
  }
  if (typeof plugin.name !== 'string' || plugin.name === '') return `${what} has no name`;
  if (plugin.specificationVersion === undefined) return `${what} has no specificationVersion; add specificationVersion: 'v1'`;
  if (plugin.specificationVersion !== 'v1') return `${what} has specificationVersion ${JSON.stringify(plugin.specificationVersion)}; this askloop understands 'v1' (update the plugin or askloop)`;
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

/**
 * What to do when Node refuses a plugin's TypeScript because it is under `node_modules` (it strips types only
 * outside): ship JavaScript, as docs/writing-tool-packs.md explains.
 */
function typeScriptUnderNodeModulesHint(error: unknown): string {
  if ((error as { code?: unknown } | null)?.code !== 'ERR_UNSUPPORTED_NODE_MODULES_TYPE_STRIPPING') return '';
  return `; Node runs no TypeScript under node_modules: compile the plugin to JavaScript (tsc) and point its package.json's exports at the built file ("exports": { ".": { "import": "./dist/index.js" } }), or install it from its folder (npm install /path/to/its/folder links it, and Node runs the .ts files of a linked folder)`;
}

/**
 * Imports every plugin of `config.plugins`, in order, calling a factory with the entry's `options` when it gives them.
 * Throws `CONFIG_PLUGIN_NOT_FOUND` or `CONFIG_PLUGIN_INVALID` pointing at the entry in the file, and `CONFIG_INVALID`
 * for options given to a plugin that is no factory, or options that are not plain data (`notPlainData`). What a plugin
 * threw is quoted as text (`thrownText`), scrubbed of keys by the CLI's redactor (`options.env`).
 */
export async function loadConfigPlugins(config: AskLoopConfig, options: LoadConfigPluginsOptions = {}): Promise<AskLoopPlugin[]> {
  const plugins: AskLoopPlugin[] = [];
  for (const [index, entry] of config.plugins.entries()) {
    const specifier = entry.package;
    const where = { file: config.file, line: entry.line, column: entry.column };
    // parseConfig refuses these at their line; a config made in code reaches here unchecked, and a factory is handed plain data only.
    const notPlain = entry.options === undefined ? undefined : notPlainData(entry.options)[0];
    if (notPlain !== undefined) throw new ConfigError('CONFIG_INVALID', `${formatIssuePath(['plugins', index, 'options', ...notPlain.path])}: ${notPlain.message}`, where);
    // A plugin's own words are quoted in the error, and a careless one echoes the token it read (its `tokenEnv:`, or
    // any variable the file hands to an MCP server): scrubbed as the CLI scrubs all it prints, here so the error itself never holds
    // the key, whoever shows it. Made only when one throws.
    const redact = (text: string): string => {
      const env = options.env ?? process.env;
      return createSecretRedactor(env, configSecretNames(config, env))(text) as string;
    };
    const resolved = resolvePluginEntry(specifier, config.dir === '' ? (options.cwd ?? process.cwd()) : config.dir);
    if ('problem' in resolved) throw new ConfigError('CONFIG_PLUGIN_NOT_FOUND', `plugin '${specifier}': ${resolved.problem}`, where);
    let module: { default?: unknown };
    try {
      module = (await import(pathToFileURL(resolved.path).href)) as { default?: unknown };
    } catch (error) {
      throw new ConfigError('CONFIG_PLUGIN_INVALID', `plugin '${specifier}' failed to load: ${failure(error, resolved.path, redact)}${missingPeerHint(error)}${typeScriptUnderNodeModulesHint(error)}`, where);
    }
    const factory = module.default;
    const origin: ExportOrigin = { ...(typeof factory === 'function' ? { factory: factory.name } : {}), named: Object.keys(module).filter((key) => key !== 'default'), withOptions: entry.options !== undefined };
    let exported: unknown = factory;
    if (typeof factory === 'function') {
      try {
        // A factory may be async (it awaits a dynamic import, say): what it resolves to is the plugin. Each load gets
        // its own copy of the options, so a factory that changes them changes no other load of the same config.
        exported = entry.options === undefined ? await (factory as () => unknown)() : await (factory as (options: unknown) => unknown)(structuredClone(entry.options));
      } catch (error) {
        // Given options, the likely cause is one of them (a factory that checks them throws naming it): say so.
        const given = entry.options === undefined ? '' : `its factory${factoryName(origin)}, called with the entry's options, threw: `;
        const fix = entry.options === undefined ? '' : "; check the entry's options against the plugin's documentation";
        throw new ConfigError('CONFIG_PLUGIN_INVALID', `plugin '${specifier}' failed to load: ${given}${failure(error, resolved.path, redact)}${fix}`, where);
      }
    }
    const problem = pluginProblem(exported, origin);
    if (problem !== undefined) {
      const form = problem.includes('definePlugin(') ? '' : "; a plugin package default-exports definePlugin({ name, specificationVersion: 'v1', … })";
      throw new ConfigError('CONFIG_PLUGIN_INVALID', `plugin '${specifier}' (${resolved.path}): ${problem}${form}`, where);
    }
    if (entry.options !== undefined && typeof factory !== 'function') {
      throw new ConfigError('CONFIG_INVALID', `plugin '${specifier}' (${resolved.path}): options cannot be passed to a plugin object, and its default export is one (plugin '${(exported as AskLoopPlugin).name}'); remove options: from the entry, or have the plugin default-export a factory that takes them: export default function plugin(options) { return definePlugin({ … }) }`, where);
    }
    plugins.push(exported as AskLoopPlugin);
  }
  return plugins;
}

/** What was thrown (`thrownText`) with its secrets scrubbed, and where in the plugin's files it was thrown: never its stack. */
function failure(error: unknown, entryPath: string, redact: (text: string) => string): string {
  return `${redact(thrownText(error))}${pluginFailureLocation(error, entryPath)}`;
}

/** ` (NAME)` for a named factory, '' for an anonymous one. */
function factoryName(origin: ExportOrigin): string {
  return origin.factory === undefined || origin.factory === '' || origin.factory === 'default' ? '' : ` (${origin.factory})`;
}
