import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loneSurrogateIndex } from '../text/lone-surrogate.ts';
import { canonicalJson, compareUtf8 } from './canonical-json.ts';
import { toolValuesEqual, type ToolMap, type ToolValue } from './tool-value.ts';

/**
 * Pieces of keys: every lone surrogate here has the bytes of U+FFFD in UTF-8
 * (EF BF BD), so keys built from them tie often under a bytes-only order.
 */
const PIECES = ['a', '1', '\uD800', '\uDBFF', '\uDC00', '\uDFFF', '\uFFFD', '\uFFFC', '\uFFFF', '\uE000', '\u{1F600}'];
const key = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 4 }),
  fc.array(fc.constantFrom(...PIECES), { maxLength: 3 }).map((parts) => parts.join('')),
);

/** Maps (and lists of them) whose keys include lone surrogates, U+FFFD and arbitrary code units; built with Object.fromEntries, so `__proto__` is a key like any other. */
const { value, map } = fc.letrec<{ value: ToolValue; map: ToolMap }>((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.constantFrom<ToolValue>(null, 0, 1, true, 'x', '\uD800', '\uFFFD'), tie('map'), fc.array(tie('value'), { maxLength: 3 })),
  map: fc.uniqueArray(fc.tuple(key, tie('value')), { selector: ([name]) => name, maxLength: 6 }).map((entries) => Object.fromEntries(entries) as ToolMap),
}));

/**
 * The Buffer-based compareUtf8 the allocation-free one replaced, kept as the
 * reference it must agree with: UTF-8 bytes first, UTF-16 units on a tie.
 */
function compareUtf8BufferReference(left: string, right: string): number {
  const byBytes = Buffer.compare(Buffer.from(left, 'utf8'), Buffer.from(right, 'utf8'));
  if (byBytes !== 0 || left === right) return byBytes;
  return left < right ? -1 : 1;
}

/**
 * One unit of a test string: any UTF-16 code unit (so lone surrogates of both
 * halves), any code point (`'binary'`, astral ones included, but never a lone
 * surrogate), or one of PIECES (lone surrogates, U+FFFD, U+FFFF, an astral pair).
 */
const anyUnit = fc.oneof(
  fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  fc.constantFrom(...PIECES),
);
/** Strings mixed from every kind of unit, some arbitrary binary ones. */
const mixedString = fc.oneof(fc.string({ unit: 'binary', maxLength: 6 }), fc.string({ unit: anyUnit, maxLength: 6 }));
/** Pairs that often share a prefix, so the comparison reaches the surrogates and the ends. */
const mixedPair = fc.oneof(
  fc.tuple(mixedString, mixedString),
  fc.tuple(mixedString, mixedString, mixedString).map(([prefix, a, b]) => [prefix + a, prefix + b] as [string, string]),
  fc.tuple(mixedString, mixedString).map(([prefix, a]) => [prefix, prefix + a] as [string, string]),
);

/** Shuffle draws: `reinsert` takes them in turn, over again as needed. */
const draws = fc.array(fc.nat(), { minLength: 1, maxLength: 16 });

/** A deep copy of `value` whose maps got their keys in another order (a shuffle driven by `draws`). */
function reinsert(value: ToolValue, draws: readonly number[]): ToolValue {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => reinsert(item, draws));
  const keys = Object.keys(value);
  for (let index = keys.length - 1; index > 0; index -= 1) {
    const other = (draws[index % draws.length] as number) % (index + 1);
    [keys[index], keys[other]] = [keys[other] as string, keys[index] as string];
  }
  return Object.fromEntries(keys.map((name) => [name, reinsert((value as ToolMap)[name] as ToolValue, draws)]));
}

describe('canonicalJson', () => {
  it('writes one text per map, whatever order its keys were inserted in (lone surrogates and U+FFFD included)', () => {
    fc.assert(
      fc.property(map, draws, (original, order) => {
        expect(canonicalJson(reinsert(original, order))).toBe(canonicalJson(original));
        expect(canonicalJson(reinsert(original, [1]))).toBe(canonicalJson(original));
      }),
      { numRuns: 300 },
    );
  });

  it('gives two maps the same text exactly when they are deep-equal', () => {
    const pair = fc.tuple(map, map, draws, fc.boolean()).map(([left, other, order, same]) => [left, same ? reinsert(left, order) : other] as const);
    fc.assert(
      fc.property(pair, ([left, right]) => {
        expect(canonicalJson(left) === canonicalJson(right)).toBe(toolValuesEqual(left, right));
      }),
      { numRuns: 300 },
    );
  });

  it('writes well-formed text that JSON.parse turns back into the value and its text', () => {
    fc.assert(
      fc.property(value, (original) => {
        const text = canonicalJson(original);
        expect(loneSurrogateIndex(text)).toBe(-1);
        expect(toolValuesEqual(JSON.parse(text) as ToolValue, original)).toBe(true);
        expect(canonicalJson(JSON.parse(text) as ToolValue)).toBe(text);
      }),
    );
  });

  it('escapes a lone surrogate as \\udXXX, in keys and in strings', () => {
    const text = canonicalJson({ '\uD800': '\uDC00', 'a\uDFFF': ['\uDBFFb'] });
    expect(text).toBe('{"a\\udfff":["\\udbffb"],"\\ud800":"\\udc00"}');
    expect(JSON.parse(text)).toEqual({ '\uD800': '\uDC00', 'a\uDFFF': ['\uDBFFb'] });
  });

  // Stored values and idempotence records hold these texts: a well-formed key's place must never move.
  it.each<[string, ToolMap, string]>([
    ['well-formed keys, by UTF-8 bytes', { b: 1, a: 2, '': 3, ab: 4, B: 5, '10': 6, '9': 7, '\u00E9': 8, '\uFF5E': 9, '\u{1F600}': 10, '\uE000': 11, '\uFFFF': 12 }, '{"":3,"10":6,"9":7,"B":5,"a":2,"ab":4,"b":1,"\u00E9":8,"\uE000":11,"\uFF5E":9,"\uFFFF":12,"\u{1F600}":10}'],
    ['nested maps and lists', { z: [{ y: 1, x: 2 }], m: { '\u{10FFFF}': null, '\u007F': false } }, '{"m":{"\u007F":false,"\u{10FFFF}":null},"z":[{"x":2,"y":1}]}'],
    ['a lone surrogate where its bytes (those of U+FFFD) put it', { '\uFFFF': 1, '\uD800': 2, '\uFFFC': 3, '\u{1F600}': 4 }, '{"\uFFFC":3,"\\ud800":2,"\uFFFF":1,"\u{1F600}":4}'],
    ['bytes first: a later byte decides before a lone surrogate does', { 'a\uD800b': 1, 'a\uFFFDa': 2 }, '{"a\uFFFDa":2,"a\\ud800b":1}'],
  ])('keeps its order for %s', (_name, input, text) => {
    expect(canonicalJson(input)).toBe(text);
    expect(canonicalJson(reinsert(input, [1]))).toBe(text);
  });

  it('orders keys whose bytes tie (lone surrogates, U+FFFD) by UTF-16 code units', () => {
    expect(canonicalJson({ 'a\uFFFD': 1, 'a\uDC00': 2, 'a\uD800': 3 })).toBe('{"a\\ud800":3,"a\\udc00":2,"a\uFFFD":1}');
    expect(canonicalJson({ 'a\uD800': 3, 'a\uDC00': 2, 'a\uFFFD': 1 })).toBe('{"a\\ud800":3,"a\\udc00":2,"a\uFFFD":1}');
  });
});

describe('compareUtf8', () => {
  const sign = (value: number): number => Math.sign(value);

  it('is a total order: antisymmetric, 0 only for the same string, transitive', () => {
    fc.assert(
      fc.property(key, key, key, (a, b, c) => {
        expect(sign(compareUtf8(a, b)) + sign(compareUtf8(b, a))).toBe(0);
        expect(compareUtf8(a, b) === 0).toBe(a === b);
        if (compareUtf8(a, b) <= 0 && compareUtf8(b, c) <= 0) expect(compareUtf8(a, c)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 1000 },
    );
  });

  it('gives the sign of the Buffer-based reference for every pair (lone surrogates, U+FFFD, U+FFFF, astral characters)', () => {
    fc.assert(
      fc.property(mixedPair, ([a, b]) => {
        expect(compareUtf8(a, b)).toBe(sign(compareUtf8BufferReference(a, b)));
        expect(compareUtf8(b, a)).toBe(sign(compareUtf8BufferReference(b, a)));
      }),
      { numRuns: 20_000 },
    );
  });

  it.each<[string, string, number]>([
    ['a\uD800', 'a\uFFFD', -1],
    ['a\uDC00', 'a\uFFFD', -1],
    ['a\uD800', 'a\uDC00', -1],
    ['a\uD800b', 'a\uFFFDa', 1],
    ['\uD800\uDC00', '\uD800', 1],
    ['\uD800\uDC00', '\uFFFF', 1],
    ['\uDC00\uD800', '\u{10000}', -1],
    ['\uFFFD', '\u{10000}', -1],
    ['ab', 'a', 1],
    ['', '\uD800', -1],
  ])('orders %j against %j as the bytes-then-units reference does', (left, right, expected) => {
    expect(sign(compareUtf8BufferReference(left, right))).toBe(expected);
    expect(compareUtf8(left, right)).toBe(expected);
    expect(compareUtf8(right, left)).toBe(-expected);
  });

  it('agrees with UTF-8 byte order wherever the bytes differ (so well-formed strings keep their order)', () => {
    fc.assert(
      fc.property(key, key, (a, b) => {
        const byBytes = Buffer.compare(Buffer.from(a), Buffer.from(b));
        if (byBytes !== 0) expect(sign(compareUtf8(a, b))).toBe(byBytes);
      }),
      { numRuns: 1000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(sign(compareUtf8(a, b))).toBe(Buffer.compare(Buffer.from(a), Buffer.from(b)));
      }),
    );
  });
});
