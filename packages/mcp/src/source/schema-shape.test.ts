import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { schemaShape, SHAPE_BOUNDS } from './schema-shape.ts';

/** server-memory's create_entities argument, as the server lists it. */
const ENTITIES = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'The name of the entity' },
      entityType: { type: 'string', description: 'The type of the entity' },
      observations: { type: 'array', items: { type: 'string' }, description: 'An array of observation contents associated with the entity' },
    },
    required: ['name', 'entityType', 'observations'],
  },
};

describe('schemaShape', () => {
  it('spells out nested lists and maps, with optional properties marked ?', () => {
    expect(schemaShape(ENTITIES, {})).toBe('list of {name: string, entityType: string, observations: list of string}');
    expect(schemaShape({ type: 'object', properties: { a: { type: 'integer' }, 'b-c': { type: 'boolean' } }, required: ['a'] }, {})).toBe('{a: int, "b-c"?: bool}');
    expect(schemaShape({ type: 'object', additionalProperties: { type: 'number' } }, {})).toBe('map of number');
    expect(schemaShape({ type: 'array' }, {})).toBe('list');
    expect(schemaShape({ items: { type: 'string' } }, {})).toBe('list of string');
  });

  it('gives allowed values, constants, unions and nullable types', () => {
    expect(schemaShape({ type: 'string', enum: ['error', 'success', 'debug'] }, {})).toBe('"error"|"success"|"debug"');
    expect(schemaShape({ const: 3 }, {})).toBe('3');
    expect(schemaShape({ anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }, {})).toBe('string|list of string');
    expect(schemaShape({ type: ['string', 'null'] }, {})).toBe('string|nil');
    expect(schemaShape({}, {})).toBe('any');
    expect(schemaShape(undefined, {})).toBe('any');
  });

  it("follows the tool's own $refs, a bounded number of times (a schema may refer to itself)", () => {
    const root = { $defs: { node: { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['label'] }, loop: { $ref: '#/$defs/loop' } } };
    expect(schemaShape({ $ref: '#/$defs/node' }, root)).toBe('{label: string, children?: list of {label: string, children?: list}}');
    expect(schemaShape({ $ref: '#/$defs/loop' }, root)).toBe('any');
    expect(schemaShape({ $ref: 'https://example.com/schema' }, root)).toBe('any');
  });

  it('stays within its bounds: levels, properties, values, literals and characters', () => {
    const deep = { type: 'array', items: { type: 'array', items: { type: 'array', items: { type: 'array', items: { type: 'string' } } } } };
    expect(schemaShape(deep, {})).toBe('list of list of list of list');
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`p${index}`, { type: 'string' }])) };
    expect(schemaShape(wide, {})).toBe(`{${Array.from({ length: 8 }, (_, index) => `p${index}?: string`).join(', ')}, ...}`);
    expect(schemaShape({ enum: Array.from({ length: 20 }, (_, index) => index) }, {})).toBe('0|1|2|3|4|5|6|7|...');
    // A literal is cut as server text is, never inside a run without white space (half a key would be left): a long
    // one goes whole, its opening quote with it.
    expect(schemaShape({ const: 'x'.repeat(100) }, {})).toBe('...');
    expect(schemaShape({ const: `${'word '.repeat(20)}` }, {})).toBe(`"${'word '.repeat(7)}word...`);
    // Too wide at every level shown: fewer levels, then the top level cut.
    const long = { type: 'array', items: { type: 'object', properties: Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`${'k'.repeat(30)}${index}`, { type: 'string' }])) } };
    expect(schemaShape(long, {})).toBe('list of map');
    const hugeEnum = { enum: Array.from({ length: 8 }, (_, index) => `${'v'.repeat(38)}${index}`) };
    expect(schemaShape(hugeEnum, {}).length).toBeLessThanOrEqual(SHAPE_BOUNDS.chars + 3);
    expect(schemaShape(hugeEnum, {}).endsWith('...')).toBe(true);
  });

  it('passes server text through `leaf` before cutting it', () => {
    const leaf = (text: string): string => text.replaceAll('hunter2secret', '[REDACTED]');
    expect(schemaShape({ enum: ['hunter2secret'] }, {}, leaf)).toBe('"[REDACTED]"');
    expect(schemaShape({ type: 'object', properties: { hunter2secret: { type: 'string' } } }, {}, leaf)).toBe('{[REDACTED]?: string}');
  });

  it('is bounded, and printable ASCII for ASCII input, for any schema made of the keywords it reads (property)', () => {
    const leafSchema = fc.oneof(
      fc.record({ type: fc.constantFrom('string', 'integer', 'number', 'boolean', 'null', 'array', 'object') }),
      fc.record({ enum: fc.array(fc.oneof(fc.string({ unit: 'binary-ascii', maxLength: 60 }), fc.integer()), { minLength: 1, maxLength: 20 }) }),
      fc.record({ $ref: fc.constantFrom('#/$defs/a', '#/$defs/b', '#/nowhere') }),
    );
    const schema = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, leafSchema, tie('array'), tie('object'), tie('union')),
      array: fc.record({ type: fc.constant('array'), items: tie('node') }),
      object: fc.record({ type: fc.constant('object'), properties: fc.dictionary(fc.string({ unit: 'binary-ascii', maxLength: 40 }), tie('node'), { maxKeys: 20 }) }),
      union: fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 5 }) }),
    })).node;
    fc.assert(
      fc.property(schema, schema, schema, (property, a, b) => {
        const text = schemaShape(property, { $defs: { a, b } });
        expect(text.length).toBeLessThanOrEqual(SHAPE_BOUNDS.chars + 3);
        expect(text.length).toBeGreaterThan(0);
        // No control characters either (JSON escapes them in literals and quoted keys; DEL is left, harmless).
        expect(text).toMatch(/^[\x20-\x7f]+$/);
      }),
      { numRuns: 300 },
    );
  });
});
