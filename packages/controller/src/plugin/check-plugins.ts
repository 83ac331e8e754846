/**
 * `checkPlugins(plugins)`: the checks `createAskLoop` makes of its `plugins`
 * option, without making a controller — for a host that only lists or checks
 * the plugins' tools (a CLI's `check` command) and must refuse the same
 * lists a run would, with the same error.
 */
import type { AskLoopPlugin } from './plugin.ts';
import { resolvePlugins } from './resolve-plugins.ts';
import { createTurnRegistry } from './turn-registry.ts';

/**
 * Refuses `plugins` exactly as `createAskLoop({ plugins })` would: a plugin with no name or another specification
 * version, a field of the wrong shape, a name another plugin already uses (plugin, provider, tool pack, tool, tool
 * source, agent), a provider or agent filed under a key other than its name, static tool packs that make no registry.
 * Throws that `LOOP_PLUGIN_INVALID`, with `pluginIndex` (and `clashIndex`) as positions in `plugins`. Nothing is
 * called: no tool source lists its packs (an MCP server is not started), no provider makes a model, no hook runs.
 */
export function checkPlugins(plugins: readonly AskLoopPlugin[]): void {
  const resolved = resolvePlugins(plugins);
  // As createAskLoop builds it: at once without tool sources, else lazily, per turn (not called here).
  createTurnRegistry(resolved.toolPacks, resolved.toolSources, resolved.toolOwners);
}
