/**
 * `tool.map.*`: helpers for NeuroScript maps (not in the reference; `for
 * each` over a map fails there, §6, so scripts need Keys/Values). Keys come
 * back sorted by UTF-8 bytes so results are deterministic. Maps are values:
 * Set, Delete and Merge return new maps.
 */
import { defineToolPack, type ToolPack } from '../registry/tool-pack.ts';
import { compareUtf8 } from '../spec/canonical-json.ts';
import { defineTool } from '../spec/define-tool.ts';
import type { ToolMap, ToolValue } from '../spec/tool-value.ts';
import { markWorkerLocal } from '../local/worker-local.ts';

const map = { name: 'map', type: 'map', description: 'The map to work on.' } as const;
const key = { name: 'key', type: 'string', description: 'A key.' } as const;
const entries = (value: ToolValue | undefined): ToolMap => value as ToolMap;
const sortedKeys = (value: ToolMap): string[] => Object.keys(value).sort(compareUtf8);

/** Creates the `map` pack. */
export function createMapTools(): ToolPack {
  return markWorkerLocal(defineToolPack('map', [
    defineTool({ name: 'tool.map.Keys', description: 'The keys, sorted.', args: [map], returns: 'list' }, (args) => sortedKeys(entries(args.map))),
    defineTool({ name: 'tool.map.Values', description: 'The values, in sorted key order.', args: [map], returns: 'list' }, (args) => {
      const value = entries(args.map);
      return sortedKeys(value).map((name) => value[name] as ToolValue);
    }),
    defineTool({ name: 'tool.map.Size', description: 'Number of keys.', args: [map], returns: 'int' }, (args) => Object.keys(entries(args.map)).length),
    defineTool({ name: 'tool.map.Has', description: 'True when the key is present.', args: [map, key], returns: 'bool' }, (args) => Object.hasOwn(entries(args.map), args.key as string)),
    defineTool(
      { name: 'tool.map.Get', description: 'The value at key, or default when absent.', args: [map, key, { name: 'default', type: 'any', required: false }], returns: 'any' },
      (args) => {
        const value = entries(args.map);
        return Object.hasOwn(value, args.key as string) ? (value[args.key as string] as ToolValue) : (args.default ?? null);
      },
    ),
    defineTool({ name: 'tool.map.Set', description: 'A new map with key set to value.', args: [map, key, { name: 'value', type: 'any', required: false }], returns: 'map' }, (args) => ({
      ...entries(args.map),
      [args.key as string]: args.value ?? null,
    })),
    defineTool({ name: 'tool.map.Delete', description: 'A new map without key.', args: [map, key], returns: 'map' }, (args) => {
      const { [args.key as string]: _removed, ...rest } = entries(args.map);
      return rest;
    }),
    defineTool(
      { name: 'tool.map.Merge', description: 'A new map with the keys of both; the second map wins on conflicts.', args: [map, { name: 'other', type: 'map', description: 'Keys to add.' }], returns: 'map' },
      (args) => ({ ...entries(args.map), ...entries(args.other) }),
    ),
  ], { pure: true }));
}
