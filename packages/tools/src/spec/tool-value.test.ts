import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.ts';
import { MAX_TOOL_VALUE_DEPTH, toToolValue, toolValuesEqual, typeName, type ToolValue } from './tool-value.ts';

describe('tool values', () => {
  it('names types as NeuroScript typeof does (reference §1.6)', () => {
    expect([null, 'a', 1, true, [1], { a: 1 }].map(typeName)).toEqual(['nil', 'string', 'number', 'boolean', 'list', 'map']);
  });

  it('copies plain data and turns undefined into nil', () => {
    const input = { a: [1, { b: undefined }] };
    const copy = toToolValue(input);
    expect(copy).toEqual({ a: [1, { b: null }] });
    expect(copy).not.toBe(input);
  });

  it('turns -0 into 0 and an array\'s holes into nil, as the program sees them', () => {
    expect(Object.is(toToolValue(-0), 0)).toBe(true);
    expect(Object.is((toToolValue({ a: [-0] }) as { a: number[] }).a[0], 0)).toBe(true);
    const copy = toToolValue([1, , 3]) as ToolValue[];
    expect(Object.hasOwn(copy, 1)).toBe(true);
    expect(copy).toEqual([1, null, 3]);
  });

  it('leaves out symbol-keyed and non-enumerable properties, as JSON does', () => {
    const value = Object.defineProperty({ a: 1, [Symbol('k')]: 2 }, 'hidden', { value: 3, enumerable: false });
    expect(toToolValue(value)).toEqual({ a: 1 });
  });

  class Point {
    x = 1;
  }
  class Stamp {
    toJSON(): string {
      return 'stamp';
    }
  }
  it.each([
    ['a function', () => 1, 'a function at $ is not plain data; leave it out of the result'],
    ['a symbol in a map', { s: Symbol('secret') }, 'a symbol at $.s is not plain data; leave it out of the result'],
    ['a BigInt', [10n], 'a BigInt at $[0] is not plain data; return a number (when it is within ±2^53) or its decimal text'],
    ['a Date', { when: new Date(0) }, 'a Date at $.when is not plain data; return text, e.g. date.toISOString()'],
    ['a Map', new Map([['a', 1]]), 'a Map at $ is not plain data; return a plain object, e.g. Object.fromEntries(map)'],
    ['a Set', new Set([1]), 'a Set at $ is not plain data; return an array, e.g. [...set]'],
    ['a Buffer', Buffer.from('secret'), 'a Buffer at $ is not plain data; return text (e.g. base64) or a list of numbers'],
    ['a typed array', new Float64Array(2), 'a Float64Array at $ is not plain data; return text (e.g. base64) or a list of numbers'],
    ['a boxed string', new String('secret'), 'a String object at $ is not plain data; return the primitive, e.g. value.valueOf()'],
    ['a plain object with toJSON', { toJSON: () => 'x', secret: 's' }, 'an object with a toJSON method at $ is not plain data; toJSON is not called: return what it returns'],
    ['a class with toJSON', new Stamp(), 'an object with a toJSON method at $ is not plain data; toJSON is not called: return what it returns'],
    ['a class instance', new Point(), 'an object of class Point at $ is not plain data; return a plain object or array'],
    ['NaN', [Number.NaN], 'a non-finite number (NaN) at $[0] is not plain data; return a finite number, or nil when there is none'],
    ['-Infinity', { n: -Infinity }, 'a non-finite number (-Infinity) at $.n is not plain data'],
    ['a cycle', (() => { const cyclic: Record<string, unknown> = {}; cyclic.self = cyclic; return cyclic; })(), 'a cycle at $.self: the value refers back to one that holds it'],
  ])('refuses %s, naming its kind and place but not its content', (_label, value, message) => {
    expect(() => toToolValue(value)).toThrow(expect.objectContaining({ code: 'TOOL_RESULT_INVALID', message: expect.stringContaining(message) }));
    expect(() => toToolValue(value)).toThrow(expect.objectContaining({ message: expect.not.stringContaining('secret') }));
  });

  it('keeps a __proto__ key as data', () => {
    const copy = toToolValue(JSON.parse('{"__proto__": {"polluted": true}}')) as Record<string, unknown>;
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('compares deeply, ignoring key order', () => {
    expect(toolValuesEqual({ a: [1, { b: 2 }], c: null }, { c: null, a: [1, { b: 2 }] })).toBe(true);
    expect(toolValuesEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(toolValuesEqual([1], { 0: 1 })).toBe(false);
  });

  it('writes canonical JSON with keys in UTF-8 byte order', () => {
    expect(canonicalJson({ b: 1, a: [true, null, 'x'], '\u{1F600}': 1, '\uFF5E': 2 })).toBe('{"a":[true,null,"x"],"b":1,"～":2,"😀":1}');
  });

  it('canonical JSON round-trips through JSON.parse and is stable', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const plain = toToolValue(value);
        const text = canonicalJson(plain);
        expect(canonicalJson(JSON.parse(text))).toBe(text);
        expect(toolValuesEqual(JSON.parse(text), plain)).toBe(true);
      }),
    );
  });
});

describe('value depth', () => {
  const nested = (levels: number): unknown => {
    let value: unknown = 1;
    for (let level = 0; level < levels; level += 1) value = level % 2 === 0 ? [value] : { a: value };
    return value;
  };

  it('copies values nested up to MAX_TOOL_VALUE_DEPTH levels', () => {
    expect(toToolValue(nested(MAX_TOOL_VALUE_DEPTH))).toEqual(nested(MAX_TOOL_VALUE_DEPTH));
  });

  it.each([MAX_TOOL_VALUE_DEPTH + 1, 5_000, 100_000])('refuses %i levels with TOOL_RESULT_TOO_LARGE, not a stack overflow', (levels) => {
    expect(() => toToolValue(nested(levels))).toThrow(expect.objectContaining({ code: 'TOOL_RESULT_TOO_LARGE', message: expect.stringContaining('nested more than 100 levels deep') }));
  });
});
