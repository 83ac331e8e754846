/**
 * The tools of a turn: the plugins' static packs plus the packs each tool
 * source (an MCP server) lists right now. Without sources the registry is
 * built once; a throwing source is `LOOP_PLUGIN_ERROR`, a duplicate name or
 * a listed pack of the wrong shape `LOOP_PLUGIN_INVALID`.
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

/** A function giving the registry for the next turn. */
export function createTurnRegistry(packs: readonly ToolPack[], sources: readonly { readonly plugin: string; readonly source: ToolSource }[]): () => Promise<ToolRegistry> {
  if (sources.length === 0) {
    const registry = build(packs);
    return async () => registry;
  }
  return async () => {
    const listed: ToolPack[] = [];
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
      listed.push(...(current as readonly ToolPack[]));
    }
    return build([...packs, ...listed]);
  };
}
