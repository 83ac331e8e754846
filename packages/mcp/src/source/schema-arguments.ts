/**
 * Turns an MCP tool's input JSON Schema into NeuroScript tool arguments:
 * types and required-ness from the schema, names made identifiers, and the
 * map back to the property names the server expects.
 */
import type { ToolArgumentInput } from '@askloop/tools';
import type { ToolValueType } from '@askloop/interpreter';
import { sanitizeNames } from './sanitize-name.ts';

/** Arguments for `defineTool`, and for each argument name the schema property it fills. */
export interface SchemaArguments {
  readonly args: readonly ToolArgumentInput[];
  /** Argument name → MCP property name. */
  readonly properties: ReadonlyMap<string, string>;
}

const SIMPLE_TYPES: Readonly<Record<string, ToolValueType>> = {
  string: 'string',
  integer: 'int',
  number: 'number',
  boolean: 'bool',
  array: 'list',
  object: 'map',
  null: 'nil',
};

/** The NeuroScript type of one property schema: its single JSON type (ignoring `null`), else `any`. */
export function schemaType(schema: unknown): ToolValueType {
  if (typeof schema !== 'object' || schema === null) return 'any';
  const type = (schema as { type?: unknown }).type;
  const types = Array.isArray(type) ? type.filter((item) => item !== 'null') : [type];
  if (types.length !== 1 || typeof types[0] !== 'string') return 'any';
  // A nullable property accepts nil, which every declared type but `any` refuses.
  if (Array.isArray(type) && type.includes('null')) return 'any';
  return SIMPLE_TYPES[types[0]] ?? 'any';
}

/**
 * Arguments from `inputSchema`: one per property, in the schema's property
 * order except that required properties come first (a tool's required
 * arguments may not follow optional ones). Named-argument maps work with the
 * sanitized names.
 */
export function schemaArguments(inputSchema: unknown): SchemaArguments {
  const schema = (typeof inputSchema === 'object' && inputSchema !== null ? inputSchema : {}) as { properties?: unknown; required?: unknown };
  const properties = typeof schema.properties === 'object' && schema.properties !== null ? (schema.properties as Record<string, unknown>) : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((item): item is string => typeof item === 'string') : []);
  const names = Object.keys(properties);
  const ordered = [...names.filter((name) => required.has(name)), ...names.filter((name) => !required.has(name))];
  const identifiers = sanitizeNames(ordered);
  const map = new Map<string, string>();
  const args = ordered.map((property, index): ToolArgumentInput => {
    const name = identifiers[index] as string;
    map.set(name, property);
    const propertySchema = properties[property] as { description?: unknown } | undefined;
    const description = typeof propertySchema?.description === 'string' ? propertySchema.description : '';
    return { name, type: schemaType(propertySchema), required: required.has(property), description };
  });
  return { args, properties: map };
}
