/**
 * The shape of a JSON Schema in a few words, for the tool catalogue a model
 * reads: `list of {name: string, entityType: string, observations: list of
 * string}`, `"error"|"success"|"debug"`. An argument's NeuroScript type
 * (`list`, `string`) is all the static check needs, but a model given only
 * `entities: list` has to guess what goes in the list.
 *
 * Bounded, since a server's schema may be huge or recursive: so many levels,
 * properties and enum values, each literal cut short, `$ref`s followed a few
 * times, and a whole shape within a character budget (fewer levels are shown
 * until it fits). Plain ASCII punctuation, as the catalogue keeps to.
 */
import { cutServerText } from './cut-server-text.ts';

/** Bounds of one shape. */
export interface ShapeBounds {
  /** Levels of nested lists and maps spelled out; deeper ones are just `list` or `map`. */
  readonly depth: number;
  /** Properties of one object shown; more are `...`. */
  readonly properties: number;
  /** Values of one enum shown; more are `|...`. */
  readonly enumValues: number;
  /** Characters of one literal (an enum or const value). */
  readonly literal: number;
  /** `$ref`s followed in one shape (a schema may refer to itself). */
  readonly refs: number;
  /** Characters of the whole shape. */
  readonly chars: number;
}

/** The bounds the catalogue uses. */
export const SHAPE_BOUNDS: ShapeBounds = { depth: 3, properties: 8, enumValues: 8, literal: 40, refs: 8, chars: 160 };

/** Turns server text (a literal, a description) into catalogue text: secrets hidden, then cut; the identity when none is known. */
export type LeafText = (text: string) => string;

type Schema = Record<string, unknown>;

const SIMPLE: Readonly<Record<string, string>> = { string: 'string', integer: 'int', number: 'number', boolean: 'bool', null: 'nil', array: 'list', object: 'map' };
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

interface Walk {
  readonly root: unknown;
  readonly bounds: ShapeBounds;
  readonly leaf: LeafText;
  refs: number;
}

/** `#/$defs/x` and `#/definitions/x` within the tool's own schema; anything else is not followed. */
function resolveRef(ref: string, walk: Walk): Schema | undefined {
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  if (match === null || !isSchema(walk.root)) return undefined;
  const table = walk.root[match[1] as string];
  const target = isSchema(table) ? table[decodeURIComponent(match[2] as string).replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
  return isSchema(target) ? target : undefined;
}

function literal(value: unknown, walk: Walk): string {
  const text = JSON.stringify(value) ?? 'null';
  return cutServerText(walk.leaf(text), walk.bounds.literal, '...');
}

function alternatives(shapes: readonly string[]): string {
  return [...new Set(shapes)].join('|');
}

function objectShape(schema: Schema, depth: number, walk: Walk): string {
  const properties = isSchema(schema.properties) ? Object.entries(schema.properties) : [];
  if (properties.length === 0) {
    const values = schema.additionalProperties;
    if (depth > 0 && isSchema(values)) {
      const inner = shape(values, depth - 1, walk);
      return inner === 'any' ? 'map' : `map of ${inner}`;
    }
    return 'map';
  }
  if (depth === 0) return 'map';
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const shown = properties.slice(0, walk.bounds.properties).map(([key, value]) => {
    const name = IDENTIFIER.test(key) ? key : JSON.stringify(key);
    return `${walk.leaf(name)}${required.has(key) ? '' : '?'}: ${shape(value, depth - 1, walk)}`;
  });
  if (properties.length > walk.bounds.properties) shown.push('...');
  return `{${shown.join(', ')}}`;
}

function typeShape(type: string, schema: Schema, depth: number, walk: Walk): string {
  if (type === 'object') return objectShape(schema, depth, walk);
  if (type === 'array') {
    if (depth === 0 || !isSchema(schema.items)) return 'list';
    const inner = shape(schema.items, depth - 1, walk);
    return inner === 'any' ? 'list' : `list of ${inner}`;
  }
  return SIMPLE[type] ?? 'any';
}

/** The shape of `schema`, `depth` levels of lists and maps deep. */
function shape(schema: unknown, depth: number, walk: Walk): string {
  if (!isSchema(schema)) return 'any';
  if (typeof schema.$ref === 'string') {
    if (walk.refs >= walk.bounds.refs) return 'any';
    walk.refs += 1;
    const target = resolveRef(schema.$ref, walk);
    return target === undefined ? 'any' : shape(target, depth, walk);
  }
  if ('const' in schema) return literal(schema.const, walk);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const values = schema.enum.slice(0, walk.bounds.enumValues).map((value) => literal(value, walk));
    return `${values.join('|')}${schema.enum.length > walk.bounds.enumValues ? '|...' : ''}`;
  }
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (union !== undefined && union.length > 0) return alternatives(union.slice(0, walk.bounds.enumValues).map((item) => shape(item, depth, walk)));
  const type = schema.type;
  if (Array.isArray(type)) return alternatives(type.filter((item): item is string => typeof item === 'string').map((item) => typeShape(item, schema, depth, walk)));
  if (typeof type === 'string') return typeShape(type, schema, depth, walk);
  // No type: what the keywords imply.
  if (isSchema(schema.properties)) return objectShape(schema, depth, walk);
  if (isSchema(schema.items)) return typeShape('array', schema, depth, walk);
  return 'any';
}

/**
 * The shape of `schema` (a property of `root`, the tool's input schema, against which `$ref`s resolve) within
 * `bounds`: the deepest rendering that fits `bounds.chars`. `leaf` scrubs server text before it is cut.
 */
export function schemaShape(schema: unknown, root: unknown, leaf: LeafText = (text) => text, bounds: ShapeBounds = SHAPE_BOUNDS): string {
  let text = 'any';
  for (let depth = bounds.depth; depth >= 0; depth -= 1) {
    text = shape(schema, depth, { root, bounds, leaf, refs: 0 });
    if (text.length <= bounds.chars) return text;
  }
  // Wide even at the top level (a long enum, long property names): cut, saying so.
  return cutServerText(text, bounds.chars, '...');
}
