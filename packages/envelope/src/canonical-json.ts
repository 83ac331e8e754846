/**
 * Canonical JSON (reference doc §3.5): object keys sorted in UTF-8 byte
 * order, no white space, array order kept, nesting limited to 100 levels.
 */
import { compareCodePoints } from './code-point-order.ts';
import { JsonDepthError, JsonSyntaxError } from './errors.ts';
import { MAX_JSON_DEPTH } from './limits.ts';
import { readJsonTree, type JsonNode } from './json-tree.ts';
import { requireString } from './argument-type.ts';

/**
 * Canonical JSON of JSON text. Scalars are kept byte for byte (numbers are not
 * normalised, string values keep their escapes); keys are decoded, sorted and
 * re-quoted; a later duplicate key wins. Surrounding white space is ignored.
 * Throws `ERR_JSON_SYNTAX` or `ERR_JSON_DEPTH`.
 */
export function canonicalizeJson(text: string): string {
  requireString(text, 'canonicalizeJson: text (canonicalJson takes a value)');
  return writeNode(readJsonTree(text, MAX_JSON_DEPTH));
}

/**
 * Canonical JSON of a plain JavaScript value (objects, arrays, strings, finite
 * numbers, booleans, null; `undefined` object members are skipped as
 * `JSON.stringify` does). Throws `ERR_JSON_SYNTAX` for values JSON cannot
 * hold (a Date, Map, Set or class instance too: written as its keys it would
 * lose its data) and `ERR_JSON_DEPTH` past 100 levels.
 */
export function canonicalJson(value: unknown): string {
  return writeValue(value, 0, '$');
}

function writeNode(node: JsonNode): string {
  if (node.kind === 'scalar') return node.raw;
  if (node.kind === 'array') return `[${node.items.map(writeNode).join(',')}]`;
  const keys = [...node.members.keys()].sort(compareCodePoints);
  return `{${keys.map((key) => `${JSON.stringify(key)}:${writeNode(node.members.get(key)!)}`).join(',')}}`;
}

function writeValue(value: unknown, depth: number, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new JsonSyntaxError(`${path}: ${value} cannot be written as JSON`, { path });
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      throw new JsonSyntaxError(`${path}: a ${typeof value} cannot be written as JSON`, { path });
  }
  if (depth >= MAX_JSON_DEPTH) throw new JsonDepthError(`${path}: JSON nests deeper than ${MAX_JSON_DEPTH} levels`, { path });
  if (Array.isArray(value)) {
    // An index loop, not map(): map() skips the holes of a sparse array.
    const items: string[] = [];
    for (let index = 0; index < value.length; index += 1) items.push(writeValue(value[index] ?? null, depth + 1, `${path}[${index}]`));
    return `[${items.join(',')}]`;
  }
  // A Date, Map, Set or class instance would be written as its own enumerable keys (a Map as {}), losing its data.
  if (!isPlainObject(value)) {
    const kind = (value as { constructor?: { name?: unknown } }).constructor?.name;
    throw new JsonSyntaxError(`${path}: a ${typeof kind === 'string' && kind !== '' ? kind : 'non-plain object'} is not plain JSON data; convert it first (a Date with toISOString(), a Map with Object.fromEntries(), a Set with [...set])`, { path });
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort(compareCodePoints);
  return `{${keys.map((key) => `${JSON.stringify(key)}:${writeValue(record[key], depth + 1, `${path}.${key}`)}`).join(',')}}`;
}

/** An object literal's kind: its prototype is `Object.prototype` (of this realm or another) or null. */
function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto === null || proto === Object.prototype) return true;
  return Object.getPrototypeOf(proto) === null && (proto as { constructor?: { name?: unknown } }).constructor?.name === 'Object';
}

