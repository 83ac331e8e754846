import { defineTool } from '@askloop/tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NOTES_CHARS, schemaArguments, schemaType } from './schema-arguments.ts';

describe('schemaType', () => {
  it('maps single JSON types and falls back to any', () => {
    expect(schemaType({ type: 'string' })).toBe('string');
    expect(schemaType({ type: 'integer' })).toBe('int');
    expect(schemaType({ type: 'number' })).toBe('number');
    expect(schemaType({ type: 'boolean' })).toBe('bool');
    expect(schemaType({ type: 'array' })).toBe('list');
    expect(schemaType({ type: 'object' })).toBe('map');
    expect(schemaType({ type: ['string', 'null'] })).toBe('any');
    expect(schemaType({ type: ['string', 'number'] })).toBe('any');
    expect(schemaType({ anyOf: [{ type: 'string' }] })).toBe('any');
    expect(schemaType(undefined)).toBe('any');
  });
});

describe('schemaArguments', () => {
  it('puts required properties first, keeping schema order within each part', () => {
    const { args, properties } = schemaArguments({
      type: 'object',
      properties: { 'opt-a': { type: 'string', description: 'A' }, need: { type: 'integer' }, optB: { type: 'boolean' } },
      required: ['need'],
    });
    expect(args.map(({ name, type, required, description }) => ({ name, type, required, description }))).toEqual([
      { name: 'need', type: 'int', required: true, description: '' },
      { name: 'opt_a', type: 'string', required: false, description: 'A' },
      { name: 'optB', type: 'bool', required: false, description: '' },
    ]);
    expect([...properties]).toEqual([
      ['need', 'need'],
      ['opt_a', 'opt-a'],
      ['optB', 'optB'],
    ]);
  });

  it('handles a schema without properties', () => {
    expect(schemaArguments({ type: 'object' }).args).toEqual([]);
    expect(schemaArguments(null).args).toEqual([]);
  });

  it("notes what the types leave out: a list's items, allowed values, descriptions; the types stay the check's", () => {
    // server-memory's create_entities and server-everything's get-annotated-message, as the servers list them.
    const entities = schemaArguments({
      type: 'object',
      properties: {
        entities: {
          type: 'array',
          items: {
            type: 'object',
            properties: { name: { type: 'string', description: 'The name of the entity' }, entityType: { type: 'string' }, observations: { type: 'array', items: { type: 'string' } } },
            required: ['name', 'entityType', 'observations'],
          },
        },
      },
      required: ['entities'],
    });
    expect(entities.args).toEqual([{ name: 'entities', type: 'list', required: true, description: 'list of {name: string, entityType: string, observations: list of string}' }]);
    expect(entities.notes).toBe('entities: list of {name: string, entityType: string, observations: list of string}');
    const message = schemaArguments({
      type: 'object',
      properties: {
        messageType: { type: 'string', enum: ['error', 'success', 'debug'], description: 'Type of message to demonstrate\n  different annotation patterns' },
        includeImage: { default: false, description: 'Whether to include an example image', type: 'boolean' },
        plain: { type: 'string' },
      },
      required: ['messageType'],
    });
    expect(message.args.map(({ name, type, description }) => ({ name, type, description }))).toEqual([
      { name: 'messageType', type: 'string', description: '"error"|"success"|"debug" (Type of message to demonstrate different annotation patterns)' },
      { name: 'includeImage', type: 'bool', description: 'Whether to include an example image' },
      { name: 'plain', type: 'string', description: '' },
    ]);
    expect(message.notes).toBe('messageType: "error"|"success"|"debug" (Type of message to demonstrate different annotation patterns); includeImage (Whether to include an example image)');
    expect(schemaArguments({ type: 'object', properties: { a: { type: 'number' } } }).notes).toBe('');
  });

  it('keeps the notes of a huge schema within NOTES_CHARS, whole notes first, and a long description short', () => {
    // Thousands of arguments, each a map whose one definition (by $ref) has thousands of keys.
    const keys = Object.fromEntries(Array.from({ length: 10_000 }, (_, key) => [`k${key}`, { type: 'string' }]));
    const argument = { $ref: '#/$defs/big', description: 'word '.repeat(100) };
    const properties = Object.fromEntries(Array.from({ length: 5_000 }, (_, index) => [`arg${index}`, argument]));
    const { args, notes } = schemaArguments({ type: 'object', properties, $defs: { big: { type: 'object', properties: keys } } });
    expect(args).toHaveLength(5_000);
    expect(notes.length).toBeLessThanOrEqual(NOTES_CHARS + 5);
    expect(notes.endsWith('; ...')).toBe(true);
    const eight = Array.from({ length: 8 }, (_, key) => `k${key}?: string`).join(', ');
    expect(notes.startsWith(`arg0: {${eight}, ...} (${'word '.repeat(16)}...); arg1: `)).toBe(true);
    // Past the shaped ones, an argument keeps its plain description.
    expect(args[4_999]?.description).toBe('word '.repeat(100));
  });

  it('always gives arguments defineTool accepts (property)', () => {
    const propertySchema = fc.record({ type: fc.constantFrom('string', 'integer', 'number', 'boolean', 'array', 'object', 'null', 'weird') });
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 8 }), propertySchema, { maxKeys: 8 }), fc.array(fc.string({ maxLength: 8 }), { maxLength: 8 }), (props, required) => {
        const { args, properties } = schemaArguments({ type: 'object', properties: props, required });
        expect(() => defineTool({ name: 'tool.s.t', description: 'x', args }, () => null)).not.toThrow();
        expect(new Set(properties.values())).toEqual(new Set(Object.keys(props)));
      }),
    );
  });
});
