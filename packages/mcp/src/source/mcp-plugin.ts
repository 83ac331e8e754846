/**
 * The plugin shape the controller will consume: `{ name, specificationVersion,
 * toolSources }`. The controller calls `toolPacks()` of each source before
 * every turn and `close()` when the session ends.
 */
import { createMcpToolSource, type McpToolSource, type McpToolSourceOptions } from './create-mcp-tool-source.ts';

/** An AskLoop plugin that contributes tool sources. */
export interface McpPlugin {
  /** `mcp` unless `options.name` says otherwise (two plugins need two names). */
  readonly name: string;
  readonly specificationVersion: 'v1';
  readonly toolSources: readonly McpToolSource[];
}

/**
 * Wraps {@link createMcpToolSource} as a plugin for `createAskLoop({ plugins })`:
 * the controller lists the source's packs before every turn (so a server's
 * tools/list_changed shows up on the next turn) and closes it with `loop.close()`.
 */
export function mcpPlugin(options: McpToolSourceOptions): McpPlugin {
  const name = options.name ?? 'mcp';
  return { name, specificationVersion: 'v1', toolSources: [createMcpToolSource({ ...options, name })] };
}
