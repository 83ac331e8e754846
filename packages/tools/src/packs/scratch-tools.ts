/**
 * `tool.scratch.Get/PutCAS(key, version, value, ttl)` (seed 000 §2.11, §6):
 * small server-side state between turns, private to the session and
 * expiring after `ttl` seconds. Keeps tokens out of OUTPUT. Both return a
 * two-element list: [value, version] and [ok, version].
 */
import { checkPackOptions, count, methods } from './pack-options.ts';
import { ToolError } from '../errors/tool-error.ts';
import { defineToolPack, type ToolPack } from '../registry/tool-pack.ts';
import { canonicalJson } from '../spec/canonical-json.ts';
import { defineTool } from '../spec/define-tool.ts';
import type { ToolValue } from '../spec/tool-value.ts';
import type { ScratchStore } from '../stores/store-types.ts';
import { markSharedStoreTools } from './shared-store-tools.ts';
import { checkKeyAndValue, requireStore } from './store-access.ts';

/** Options of {@link createScratchTools}. */
export interface ScratchToolsOptions {
  /** The store; default: the host's `stores.scratch`. */
  readonly store?: ScratchStore;
  /** TTL when the script passes none, in seconds. Default 3600, or `maxTtlSeconds` when that is less. */
  readonly defaultTtlSeconds?: number;
  /** Largest TTL a script may ask for, in seconds. Default 7 days. */
  readonly maxTtlSeconds?: number;
  /** Largest value, as canonical JSON bytes. Default 64 KiB. */
  readonly maxValueBytes?: number;
}

/** Creates the `scratch` pack. */
export function createScratchTools(options: ScratchToolsOptions = {}): ToolPack {
  checkPackOptions('createScratchTools', options, { store: methods('a scratch store such as openSqliteStore(file).scratch', 'get', 'putCas'), defaultTtlSeconds: count(1), maxTtlSeconds: count(1), maxValueBytes: count(1) });
  const maxTtlSeconds = options.maxTtlSeconds ?? 7 * 24 * 3600;
  // A default past the maximum failed every PutCAS without a ttl, as if the program had asked for it. Only one
  // given is refused: a maximum below the default's hour lowers the default with it.
  if (options.defaultTtlSeconds !== undefined && options.defaultTtlSeconds > maxTtlSeconds) {
    throw new ToolError('TOOL_SPEC_INVALID', `createScratchTools(): defaultTtlSeconds ${options.defaultTtlSeconds} is above maxTtlSeconds ${maxTtlSeconds}; every PutCAS without a ttl would be refused`);
  }
  const defaultTtlSeconds = options.defaultTtlSeconds ?? Math.min(3600, maxTtlSeconds);
  const maxValueBytes = options.maxValueBytes ?? 64 * 1024;
  const key = { name: 'key', type: 'string', description: 'Scratch key (private to this session).' } as const;
  // Its tools see the host's stores unscoped (and refuse the keys packs keep there).
  return markSharedStoreTools(defineToolPack('scratch', [
    defineTool({ name: 'tool.scratch.Get', description: 'Reads a session scratch key: [value, version]; [nil, 0] when absent or expired.', args: [key], returns: 'list' }, async (args, context) => {
      checkKeyAndValue(args.key as string, undefined, maxValueBytes);
      const found = await requireStore('scratch', options.store, context).get(context.session, args.key as string);
      return [found.value, found.version];
    }),
    defineTool(
      {
        name: 'tool.scratch.PutCAS',
        description: 'Writes value if the key is still at version (0: absent or expired), expiring after ttl seconds: [ok, current version].',
        args: [
          key,
          { name: 'version', type: 'int', description: 'The version read by Get.' },
          { name: 'value', type: 'any', required: false, description: 'New value.' },
          { name: 'ttl', type: 'int', default: defaultTtlSeconds, description: 'Seconds until the entry expires.' },
        ],
        returns: 'list',
        effect: 'write',
        idempotent: false,
      },
      async (args, context) => {
        const value = (args.value ?? null) as ToolValue;
        const ttl = args.ttl as number;
        if (ttl <= 0 || ttl > maxTtlSeconds) throw new ToolError('TOOL_ARGUMENT_INVALID', `ttl must be between 1 and ${maxTtlSeconds} seconds, got ${ttl}`, { argument: 'ttl' });
        checkKeyAndValue(args.key as string, canonicalJson(value), maxValueBytes);
        const store = requireStore('scratch', options.store, context);
        // As tool.memory.CAS: a negative version loses, answering the live version, not the store's refusal.
        if ((args.version as number) < 0) return [false, (await store.get(context.session, args.key as string)).version];
        const outcome = await store.putCas(context.session, args.key as string, args.version as number, value, ttl * 1000);
        return [outcome.ok, outcome.version];
      },
    ),
  ]));
}
