/**
 * `tool.memory.Get/CAS` (seed 000 §2.10, §6): durable, versioned memory
 * shared across sessions, written only by compare-and-swap. Both return a
 * two-element list so scripts can write `set value, version = ...`.
 * Keys are scopes of the `memory` capability: `memory:write:/ingest/**`.
 */
import { checkPackOptions, count, methods } from './pack-options.ts';
import type { Capability } from '../policy/capability.ts';
import { defineToolPack, type ToolPack } from '../registry/tool-pack.ts';
import { canonicalJson } from '../spec/canonical-json.ts';
import { defineTool } from '../spec/define-tool.ts';
import type { ToolValue } from '../spec/tool-value.ts';
import type { MemoryStore } from '../stores/store-types.ts';
import { markSharedStoreTools } from './shared-store-tools.ts';
import { checkKeyAndValue, requireStore } from './store-access.ts';

/** Options of {@link createMemoryTools}. */
export interface MemoryToolsOptions {
  /** The store; default: the host's `stores.memory`. */
  readonly store?: MemoryStore;
  /** Largest value, as canonical JSON bytes. Default 256 KiB. */
  readonly maxValueBytes?: number;
}

function keyScope(verb: string, key: ToolValue | undefined): Capability {
  checkKeyAndValue(String(key), undefined, Number.POSITIVE_INFINITY);
  return { resource: 'memory', verbs: [verb], scopes: [String(key)] };
}

/** Creates the `memory` pack. */
export function createMemoryTools(options: MemoryToolsOptions = {}): ToolPack {
  checkPackOptions('createMemoryTools', options, { store: methods('a memory store such as openSqliteStore(file).memory', 'get', 'cas'), maxValueBytes: count(1) });
  const maxValueBytes = options.maxValueBytes ?? 256 * 1024;
  const key = { name: 'key', type: 'string', description: 'Memory key, e.g. /ingest/queue/x.' } as const;
  // Its tools see the host's stores unscoped (and refuse the keys packs keep there).
  return markSharedStoreTools(defineToolPack('memory', [
    defineTool(
      {
        name: 'tool.memory.Get',
        description: 'Reads a key: [value, version]; [nil, 0] when absent.',
        args: [key],
        returns: 'list',
        capabilities: ['memory:read'],
        scopes: (args) => [keyScope('read', args.key)],
      },
      async (args, context) => {
        checkKeyAndValue(args.key as string, undefined, maxValueBytes);
        const found = await requireStore('memory', options.store, context).get(args.key as string);
        return [found.value, found.version];
      },
    ),
    defineTool(
      {
        name: 'tool.memory.CAS',
        description: 'Writes value only if the key is still at version (0: absent): [ok, current version].',
        args: [key, { name: 'version', type: 'int', description: 'The version read by Get.' }, { name: 'value', type: 'any', required: false, description: 'New value.' }],
        returns: 'list',
        capabilities: ['memory:write'],
        scopes: (args) => [keyScope('write', args.key)],
        effect: 'write',
        idempotent: false,
      },
      async (args, context) => {
        const value = (args.value ?? null) as ToolValue;
        checkKeyAndValue(args.key as string, canonicalJson(value), maxValueBytes);
        const store = requireStore('memory', options.store, context);
        // No stored version is negative, so such a CAS loses; the store refuses one from code as a bug, but a
        // script's has always answered [false, current version].
        if ((args.version as number) < 0) return [false, (await store.get(args.key as string)).version];
        const outcome = await store.cas(args.key as string, args.version as number, value);
        return [outcome.ok, outcome.version];
      },
    ),
  ]));
}
