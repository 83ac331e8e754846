/**
 * Which tools a sandbox worker may answer itself, without a round trip to the
 * host: the built-in pure packs (`str`, `list`, `map`, `math`, `json`), whose
 * code the worker loads too (`local-tools.ts`). A tool is known by its
 * definition object, not its name, so a plugin's tool of the same name is
 * never answered in the worker.
 */
import type { ToolPack } from '../registry/tool-pack.ts';
import type { ToolDefinition } from '../spec/tool-spec.ts';

const workerLocal = new WeakSet<ToolDefinition>();

/** Marks every tool of a built-in pure pack as one a sandbox worker may answer; returns the pack. */
export function markWorkerLocal(pack: ToolPack): ToolPack {
  for (const tool of pack.tools) workerLocal.add(tool);
  return pack;
}

/** Whether `definition` is a tool of a built-in pure pack (see {@link markWorkerLocal}). */
export function isWorkerLocal(definition: ToolDefinition): boolean {
  return workerLocal.has(definition);
}
