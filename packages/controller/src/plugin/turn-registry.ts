/**
 * The tools of a turn: the plugins' static packs plus the packs each tool
 * source (an MCP server) lists right now. Without sources the registry is
 * built once; a throwing source is `LOOP_PLUGIN_ERROR`, a duplicate name
 * `LOOP_PLUGIN_INVALID`.
 */
import { createToolRegistry, isToolError, type ToolPack, type ToolRegistry } from '@askloop/tools';
import { LoopError } from '../errors/loop-error.ts';
import type { ToolSource } from './plugin.ts';
import { pluginError } from './call-hook.ts';

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
      try {
        listed.push(...(await source.toolPacks()));
      } catch (error) {
        throw pluginError(plugin, `toolSources.${source.name}.toolPacks`, error);
      }
    }
    return build([...packs, ...listed]);
  };
}
