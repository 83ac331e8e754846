/**
 * The tools of a turn: the plugins' static packs plus the packs each tool
 * source (an MCP server) lists right now. Without sources the registry is
 * built once; a throwing source is `LOOP_PLUGIN_ERROR`, a duplicate name (a
 * listed pack's or tool's naming both plugins) or a listed pack of the wrong
 * shape `LOOP_PLUGIN_INVALID`.
 */
import { createToolRegistry, isToolError, type ToolPack, type ToolRegistry } from '@askloop/tools';
import { LoopError } from '../errors/loop-error.ts';
import type { ToolSource } from './plugin.ts';
import { pluginError } from './call-hook.ts';
import { listedPacksProblem } from './plugin-shape.ts';

function build(packs: readonly ToolPack[]): ToolRegistry {
  try {
    return createToolRegistry(packs);
  } catch (error) {
    if (isToolError(error)) throw new LoopError({ code: 'LOOP_PLUGIN_INVALID', message: error.message, cause: error });
    throw error;
  }
}

/** Who contributed each pack and tool (canonical name) before the sources list theirs. */
export interface ToolOwners {
  readonly packs: ReadonlyMap<string, string>;
  readonly tools: ReadonlyMap<string, string>;
}

/**
 * What a source's listed packs clash with — a static pack or tool, or one an earlier source listed — naming both
 * plugins, or undefined. Without it the registry's own `tool pack 'str' is registered twice` named neither.
 */
function listedClash(listed: readonly ToolPack[], plugin: string, source: string, owners: ToolOwners, taken: { packs: Map<string, string>; tools: Map<string, string> }): string | undefined {
  for (const pack of listed) {
    const packOwner = owners.packs.get(pack.name) ?? taken.packs.get(pack.name);
    if (packOwner !== undefined) return `plugin '${plugin}': its tool source '${source}' listed the tool pack '${pack.name}', which plugin '${packOwner}' already contributes; give the source's pack another name (an MCP server's pack is named after the server)`;
    taken.packs.set(pack.name, plugin);
    for (const tool of pack.tools) {
      const toolOwner = owners.tools.get(tool.spec.name) ?? taken.tools.get(tool.spec.name);
      if (toolOwner !== undefined) return `plugin '${plugin}': its tool source '${source}' listed the tool '${tool.spec.displayName}' (pack '${pack.name}'), which plugin '${toolOwner}' already contributes; give the source's pack another name`;
      taken.tools.set(tool.spec.name, plugin);
    }
  }
  return undefined;
}

/** A function giving the registry for the next turn. */
export function createTurnRegistry(packs: readonly ToolPack[], sources: readonly { readonly plugin: string; readonly source: ToolSource }[], owners: ToolOwners): () => Promise<ToolRegistry> {
  if (sources.length === 0) {
    const registry = build(packs);
    return async () => registry;
  }
  return async () => {
    const listed: ToolPack[] = [];
    const taken = { packs: new Map<string, string>(), tools: new Map<string, string>() };
    for (const { plugin, source } of sources) {
      let current: unknown;
      try {
        current = await source.toolPacks();
      } catch (error) {
        throw pluginError(plugin, `toolSources.${source.name}.toolPacks`, error);
      }
      // Listed at run time, so checked here as the plugin's static packs are at createAskLoop.
      const problem = listedPacksProblem(current);
      if (problem !== undefined) throw new LoopError({ code: 'LOOP_PLUGIN_INVALID', message: `plugin '${plugin}': its tool source '${source.name}' listed ${problem}`, plugin });
      const clash = listedClash(current as readonly ToolPack[], plugin, source.name, owners, taken);
      if (clash !== undefined) throw new LoopError({ code: 'LOOP_PLUGIN_INVALID', message: clash, plugin });
      listed.push(...(current as readonly ToolPack[]));
    }
    return build([...packs, ...listed]);
  };
}
