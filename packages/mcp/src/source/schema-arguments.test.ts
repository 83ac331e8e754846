import { defineTool } from '@askloop/tools';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { schemaArguments, schemaType } from './schema-arguments.ts';

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
