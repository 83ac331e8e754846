/**
 * Turns an MCP tool's input JSON Schema into NeuroScript tool arguments:
 * types and required-ness from the schema, names made identifiers, and the
 * map back to the property names the server expects; and, for the model, what
 * the types do not say (a list's items, a map's keys, allowed values, each
 * argument's description) as short notes.
 */
import type { ToolArgumentInput } from '@askloop/tools';
import type { ToolValueType } from '@askloop/interpreter';
import { cutServerText } from './cut-server-text.ts';
import { sanitizeNames } from './sanitize-name.ts';
import { schemaShape, type LeafText } from './schema-shape.ts';

/** Arguments for `defineTool`, and for each argument name the schema property it fills. */
export interface SchemaArguments {
  readonly args: readonly ToolArgumentInput[];
  /** Argument name → MCP property name. */
  readonly properties: ReadonlyMap<string, string>;
  /**
   * What the arguments' types leave out, one `name: shape (description)` per argument that has more to say, joined
   * with `; ` (`entities: list of {name: string, entityType: string, observations: list of string}; messageType:
   * "error"|"success"|"debug" (Type of message)`), within {@link NOTES_CHARS}; '' when there is nothing. For the one
   * line of a tool's description the catalogue shows: its argument types stay the ones the check uses.
   */
  readonly notes: string;
}

/** The longest notes of one tool: the catalogue is in every prompt, and a server's schema may be huge. */
export const NOTES_CHARS = 480;

/**
 * Arguments whose shape is worked out: the notes hold about this many at most anyway, and a schema of thousands of
 * arguments each referring to one huge definition must not cost thousands of walks of it.
 */
const SHAPED_ARGUMENTS = 32;

/** The longest description of one argument in the notes. */
const NOTE_DESCRIPTION_CHARS = 80;

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

/** The notes joined within {@link NOTES_CHARS}: whole notes while they fit, then `...`. */
function joinNotes(parts: readonly string[]): string {
  let notes = '';
  for (const part of parts) {
    const next = notes === '' ? part : `${notes}; ${part}`;
    if (next.length > NOTES_CHARS) return notes === '' ? cutServerText(part, NOTES_CHARS, '...') : `${notes}; ...`;
    notes = next;
  }
  return notes;
}

/**
 * Arguments from `inputSchema`: one per property, in the schema's property
 * order except that required properties come first (a tool's required
 * arguments may not follow optional ones). Named-argument maps work with the
 * sanitized names. `leaf` scrubs the server's text (descriptions, literals)
 * before the notes cut it, so no half of a secret is left for later
 * redaction to miss.
 */
export function schemaArguments(inputSchema: unknown, leaf: LeafText = (text) => text): SchemaArguments {
  const schema = (typeof inputSchema === 'object' && inputSchema !== null ? inputSchema : {}) as { properties?: unknown; required?: unknown };
  const properties = typeof schema.properties === 'object' && schema.properties !== null ? (schema.properties as Record<string, unknown>) : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((item): item is string => typeof item === 'string') : []);
  const names = Object.keys(properties);
  const ordered = [...names.filter((name) => required.has(name)), ...names.filter((name) => !required.has(name))];
  const identifiers = sanitizeNames(ordered);
  const map = new Map<string, string>();
  const notes: string[] = [];
  const args = ordered.map((property, index): ToolArgumentInput => {
    const name = identifiers[index] as string;
    map.set(name, property);
    const propertySchema = properties[property] as { description?: unknown } | undefined;
    const description = typeof propertySchema?.description === 'string' ? propertySchema.description : '';
    const type = schemaType(propertySchema);
    const shape = index < SHAPED_ARGUMENTS ? schemaShape(propertySchema, inputSchema, leaf) : type;
    // Only a shape that says more than the type the catalogue already shows (`list of string` for `list`).
    const richer = shape === type || shape === 'any' ? undefined : shape;
    const said = description.replace(/\s+/g, ' ').trim();
    if (richer !== undefined || said !== '') {
      const short = said === '' ? '' : ` (${cutServerText(leaf(said), NOTE_DESCRIPTION_CHARS, '...')})`;
      notes.push(`${name}${richer === undefined ? '' : `: ${richer}`}${short}`);
    }
    // The spec's own description of the argument gets the shape too, for whatever lists arguments one by one.
    const argumentDescription = richer === undefined ? description : said === '' ? richer : `${richer} (${said})`;
    return { name, type, required: required.has(property), description: argumentDescription };
  });
  return { args, properties: map, notes: joinNotes(notes) };
}
