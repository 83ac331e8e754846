/**
 * The tools that see the host's memory and scratch stores as they are: the
 * built-in `tool.memory.*` and `tool.scratch.*`, which keep an agent's own
 * keys there and refuse the keys packs keep (`PACK_STORE_PREFIX`). Every
 * other tool gets its pack's own view (`scopeStoresToPack`). They are known
 * by the definitions their factories made, not by pack name: a plugin that
 * names its pack `memory` is scoped like any other.
 */
import type { ToolPack } from '../registry/tool-pack.ts';
import type { ToolDefinition } from '../spec/tool-spec.ts';

/**
 * One set per process, not per copy of this package: a plugin that bundles its own `@askloop/tools` makes the
 * built-in packs with one copy while the host's tool host is another's (as `isToolError` recognises either copy's
 * errors). Per copy, the built-in memory tools would be scoped, and an agent's keys would move under `pack:memory/`.
 */
const REGISTRY = Symbol.for('askloop.tools.sharedStoreTools');
const sharedStoreTools: WeakSet<ToolDefinition> = ((globalThis as { [REGISTRY]?: WeakSet<ToolDefinition> })[REGISTRY] ??= new WeakSet<ToolDefinition>());

/** Marks the tools of a built-in memory or scratch pack as seeing the shared stores; returns the pack. */
export function markSharedStoreTools(pack: ToolPack): ToolPack {
  for (const tool of pack.tools) sharedStoreTools.add(tool);
  return pack;
}

/** Whether `definition` is a built-in memory or scratch tool (see {@link markSharedStoreTools}). */
export function seesSharedStores(definition: ToolDefinition): boolean {
  return sharedStoreTools.has(definition);
}
