import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-json.ts';
import { MAX_TOOL_VALUE_DEPTH, toToolValue, toolValuesEqual, typeName } from './tool-value.ts';

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

  it.each([
    ['a function', () => 1, 'unsupported function at $'],
    ['a class instance', { when: new Date(0) }, 'unsupported object of class Date at $.when'],
    ['NaN', [Number.NaN], 'non-finite number NaN at $[0]'],
    ['a cycle', (() => { const cyclic: Record<string, unknown> = {}; cyclic.self = cyclic; return cyclic; })(), 'cyclic value at $.self'],
  ])('refuses %s', (_label, value, message) => {
    expect(() => toToolValue(value)).toThrow(expect.objectContaining({ code: 'TOOL_RESULT_INVALID', message: expect.stringContaining(message) }));
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
