/**
 * Where in a config file each plugin given to the controller came from: a
 * `plugins:` entry (its text and place), the file's `agents:` or its
 * `mcpServers:`. The controller names a plugin by its position in its own
 * list (`LoopError.pluginIndex`), which holds askloop's built-in plugins
 * too; this maps the position back to what the user wrote.
 *
 * Kept beside the plugin objects (a `WeakMap`), not threaded through every
 * command that builds the list. The same object may come from two entries
 * (a module listed twice gives one default export): its origins are kept in
 * entry order, and its k-th place in the list is its k-th origin.
 */
import type { AskLoopPlugin } from '@askloop/controller';

/** Where a plugin came from in a config file. */
export type PluginOrigin =
  | {
      readonly kind: 'entry';
      readonly file: string;
      /** Its position in the file's `plugins:` list. */
      readonly index: number;
      /** The entry's package name or path, as written. */
      readonly package: string;
      readonly line: number;
      readonly column: number;
    }
  | { readonly kind: 'agents' | 'mcpServers'; readonly file: string };

const origins = new WeakMap<object, readonly PluginOrigin[]>();

/** Records where each of one config's plugins came from, in the order they were loaded (replacing an earlier load's). */
export function rememberPluginOrigins(loaded: readonly { readonly plugin: AskLoopPlugin; readonly origin: PluginOrigin }[]): void {
  const byPlugin = new Map<object, PluginOrigin[]>();
  for (const { plugin, origin } of loaded) byPlugin.set(plugin, [...(byPlugin.get(plugin) ?? []), origin]);
  for (const [plugin, list] of byPlugin) origins.set(plugin, list);
}

/** Where the plugin at `index` of `plugins` (the list given to the controller) came from; undefined for one askloop adds itself. */
export function pluginOriginAt(plugins: readonly unknown[], index: number): PluginOrigin | undefined {
  const plugin = plugins[index];
  if (typeof plugin !== 'object' || plugin === null) return undefined;
  const list = origins.get(plugin);
  if (list === undefined) return undefined;
  const occurrence = plugins.slice(0, index).filter((earlier) => earlier === plugin).length;
  return list[Math.min(occurrence, list.length - 1)];
}
