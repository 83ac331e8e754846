import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalizeJson, canonicalJson } from './canonical-json.ts';
import { compareCodePoints } from './code-point-order.ts';

describe('canonical JSON', () => {
  it('writes the same text for a value and for any JSON text of it', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
        const canonical = canonicalJson(value);
        expect(canonicalizeJson(JSON.stringify(value, null, 2))).toBe(canonical);
        expect(JSON.parse(canonical)).toEqual(JSON.parse(JSON.stringify(value)));
        expect(canonicalizeJson(canonical)).toBe(canonical);
      }),
    );
  });

  it('refuses values JSON cannot hold, naming where', () => {
    expect(() => canonicalJson({ a: [1, Number.NaN] })).toThrow(expect.objectContaining({ code: 'ERR_JSON_SYNTAX', path: '$.a[1]' }));
    expect(() => canonicalJson({ f: () => 1 })).toThrow(expect.objectContaining({ code: 'ERR_JSON_SYNTAX' }));
  });

  it('refuses a Date, Map, Set or class instance, which written as its keys would lose its data (walkthrough: a Date became {})', () => {
    expect(() => canonicalJson({ d: new Date(0) })).toThrow(expect.objectContaining({ code: 'ERR_JSON_SYNTAX', path: '$.d', message: '$.d: a Date is not plain JSON data; convert it first (a Date with toISOString(), a Map with Object.fromEntries(), a Set with [...set])' }));
    expect(() => canonicalJson([new Map([['a', 1]])])).toThrow(expect.objectContaining({ path: '$[0]', message: expect.stringContaining('a Map is not plain JSON data') }));
    expect(() => canonicalJson({ s: new Set([1]) })).toThrow(/a Set is not plain JSON data/);
    class Point {
      x = 1;
    }
    expect(() => canonicalJson(new Point())).toThrow(/a Point is not plain JSON data/);
    // Plain objects, from this realm or without a prototype, are JSON data.
    expect(canonicalJson({ b: Object.assign(Object.create(null), { z: 1, a: 2 }), a: JSON.parse('{"k":[1]}') })).toBe('{"a":{"k":[1]},"b":{"a":2,"z":1}}');
  });

  it('limits nesting to 100 levels for values too', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 100; level += 1) deep = [deep];
    expect(() => canonicalJson(deep)).not.toThrow();
    expect(() => canonicalJson([deep])).toThrow(expect.objectContaining({ code: 'ERR_JSON_DEPTH' }));
  });
});

describe('compareCodePoints', () => {
  it('orders strings as their UTF-8 bytes order', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (left, right) => {
        expect(Math.sign(compareCodePoints(left, right))).toBe(Math.sign(Buffer.compare(Buffer.from(left), Buffer.from(right))));
      }),
    );
  });
});
