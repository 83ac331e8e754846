/**
 * Finds the store a loop-support tool works on: the one given to its pack
 * factory, else the one the host was given.
 */
import { ToolError } from '../errors/tool-error.ts';
import type { ToolContext } from '../spec/tool-context.ts';
import { PACK_STORE_PREFIX } from '../stores/pack-scoped-stores.ts';
import type { ToolStores } from '../stores/store-types.ts';
import { storedNameProblem } from '../text/stored-name.ts';

/** The `kind` store from the pack options or the host, or `TOOL_STORE_MISSING`. */
export function requireStore<K extends keyof ToolStores>(kind: K, fromPack: ToolStores[K] | undefined, context: ToolContext): ToolStores[K] {
  const store = fromPack ?? context.stores[kind];
  if (store === undefined) {
    throw new ToolError('TOOL_STORE_MISSING', `${context.spec.displayName} needs a ${kind} store; pass stores to createToolHost() or the pack factory`, { tool: context.spec.displayName });
  }
  return store;
}

/**
 * Rejects empty or oversized keys, keys holding U+0000 or a lone surrogate
 * (no store keeps them apart: the store would refuse one as a bug of code,
 * `STORE_ARGUMENT_INVALID`; a program is told to use another key), keys a tool pack keeps (they start with
 * `PACK_STORE_PREFIX`: no program may read or write a pack's state through
 * `tool.memory.*` or `tool.scratch.*`), and values too large to store.
 */
export function checkKeyAndValue(key: string, valueJson: string | undefined, maxValueBytes: number): void {
  if (key === '' || key.length > 512) throw new ToolError('TOOL_ARGUMENT_INVALID', `key must be 1 to 512 characters, got ${key.length}`, { argument: 'key' });
  const unstorable = storedNameProblem(key, 'key');
  if (unstorable !== undefined) throw new ToolError('TOOL_ARGUMENT_INVALID', `key ${unstorable}`, { argument: 'key' });
  if (key.startsWith(PACK_STORE_PREFIX)) {
    throw new ToolError('TOOL_ARGUMENT_INVALID', `key starts with '${PACK_STORE_PREFIX}', which is reserved for the state tool packs keep through their own tools; use a key that does not start with '${PACK_STORE_PREFIX}'`, { argument: 'key' });
  }
  if (valueJson !== undefined && Buffer.byteLength(valueJson) > maxValueBytes) {
    throw new ToolError('TOOL_ARGUMENT_INVALID', `value is ${Buffer.byteLength(valueJson)} bytes as JSON; the limit is ${maxValueBytes}`, { argument: 'value' });
  }
}
