/**
 * The plugin shape the controller will consume: `{ name, specificationVersion,
 * toolSources }`. The controller calls `toolPacks()` of each source before
 * every turn and `close()` when the session ends.
 */
import { createMcpToolSource, type McpToolSource, type McpToolSourceOptions } from './create-mcp-tool-source.ts';

/** An AskLoop plugin that contributes tool sources. */
export interface McpPlugin {
  readonly name: 'mcp';
  readonly specificationVersion: 'v1';
  readonly toolSources: readonly McpToolSource[];
}

/** Wraps {@link createMcpToolSource} as a plugin. */
export function mcpPlugin(options: McpToolSourceOptions): McpPlugin {
  return { name: 'mcp', specificationVersion: 'v1', toolSources: [createMcpToolSource(options)] };
}
