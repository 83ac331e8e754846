/**
 * A `LOOP_PLUGIN_INVALID` of `createAskLoop` about a plugin of the config
 * file, said at its `plugins:` entry (`FILE:LINE:COLUMN`, `plugins[0]
 * (./p.mjs)`) as every other config error is. The controller names plugins
 * by their place in its own list, after askloop's built-in ones (`plugins[2]
 * and plugins[3]` for the file's first two entries); the other plugin of a
 * clash is named as what it is to the user: another entry, askloop's
 * built-in plugin, or the plugin askloop makes of the file's agents or MCP
 * servers. The code stays the controller's.
 */
import type { AskLoopPlugin, LoopError } from '@askloop/controller';
import { CliError } from '../cli-error.ts';
import { pluginOriginAt, type PluginOrigin } from './plugin-origin.ts';

type EntryOrigin = Extract<PluginOrigin, { kind: 'entry' }>;

/** The plugins askloop adds itself, by name, as the user knows them. */
const ASKLOOP_PLUGINS: Readonly<Record<string, string>> = {
  builtin: "askloop's built-in plugin, with its providers and tools",
  'askloop-scripted': "askloop's plugin of the scripted provider of --script",
  'mcp-config': 'the plugin askloop makes of the servers of --mcp-config',
};

/** An entry as the user wrote it. */
const label = (entry: EntryOrigin): string => `plugins[${entry.index}] (${entry.package})`;

/** The other plugin of a clash, as the user knows it. */
function described(origin: PluginOrigin | undefined, name: string): string {
  if (origin === undefined) return ASKLOOP_PLUGINS[name] ?? `plugin '${name}', which askloop adds itself`;
  if (origin.kind === 'entry') return `${label(origin)} at line ${origin.line}`;
  return `the plugin askloop makes of the ${origin.kind}: section of this file`;
}

const nameAt = (plugins: readonly AskLoopPlugin[], index: number): string => String((plugins[index] as { name?: unknown } | undefined)?.name);

/**
 * `error` said at the config's entry it is about, or undefined when it is about no entry (a plugin given in code).
 * `plugins` is the list the controller was given, in order.
 */
export function configPluginError(error: LoopError, plugins: readonly AskLoopPlugin[]): CliError | undefined {
  if (error.code !== 'LOOP_PLUGIN_INVALID' || error.pluginIndex === undefined) return undefined;
  const fault = { origin: pluginOriginAt(plugins, error.pluginIndex), name: nameAt(plugins, error.pluginIndex) };
  const clash = error.clashIndex === undefined || error.clashIndex === error.pluginIndex ? undefined : { origin: pluginOriginAt(plugins, error.clashIndex), name: nameAt(plugins, error.clashIndex) };
  // The entry to point at: the one at fault, else the entry a plugin askloop made of the file clashes with.
  const [entry, other] = fault.origin?.kind === 'entry' ? [fault.origin, clash] : clash?.origin?.kind === 'entry' ? [clash.origin, fault] : [undefined, undefined];
  if (entry === undefined) return undefined;
  let message: string;
  if (other === undefined) message = `${label(entry)}: ${error.message}`;
  else if (other.name === fault.name && fault.name === clash?.name) {
    // The controller's own words name its positions (`plugins[2] and plugins[3]`), which the file does not have.
    const fix = other.origin?.kind === 'entry' ? 'list each plugin once, or give one of them another name' : 'give yours another name';
    message = `${label(entry)} is plugin '${fault.name}', and so is ${described(other.origin, other.name)}; plugin names are unique: ${fix}`;
  } else {
    // Only the user's own plugin can be renamed when the other is one askloop adds itself.
    const fix = other.origin === undefined ? ': rename yours' : '';
    message = `${label(entry)}: ${error.message}; plugin '${other.name}' is ${described(other.origin, other.name)}${fix}`;
  }
  return CliError.fromLoopError({ code: error.code, message, line: entry.line, column: entry.column }, entry.file === '' ? undefined : entry.file);
}
