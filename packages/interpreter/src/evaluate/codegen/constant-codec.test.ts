import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findBuiltin, type Value } from '../../runtime/index.ts';
import { ProgramTables } from './code-context.ts';
import { decodeConstant, encodeConstant } from './constant-codec.ts';

/** What crossing into the sandbox does to the encoded table: a JSON trip. */
const acrossTheBoundary = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const limits = { collectionSize: 100, callDepth: 10, loopIterations: 10 };

/** Strings with lone surrogates, astral and other non-ASCII characters, and plain text. */
const strings = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.constantFrom('', '\ud800', 'a\udc00b', '\udbff\ud800', '😀', 'é\u0301', '\u0000', '"); K[0] = 1; ("'),
);
/** Doubles of every kind: NaN, ±0, ±Infinity, subnormals, huge and tiny values, integers. */
const numbers = fc.oneof(
  fc.double(),
  fc.constantFrom(Number.NaN, -0, 0, Infinity, -Infinity, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, -Number.MIN_VALUE, 1e21, 5e-324, 2 ** 53 + 2),
  fc.integer(),
);
const builtinNames = fc.constantFrom('len', 'typeof', 'char', 'ord', 'is_string', 'is_number', 'sin', 'ln');
const globalValues: ReadonlyMap<string, Value> = new Map<string, Value>([
  ['self', 'default_self_buffer'],
  ['userdata', new Map<string, Value>([['name', 'ada']])],
  ['nothing', null],
  ['__proto__', [1, 2]],
]);

describe('constant codec', () => {
  it('round-trips every string and number through JSON', () => {
    fc.assert(
      fc.property(fc.oneof(strings, numbers), (value) => {
        expect(Object.is(decodeConstant(acrossTheBoundary(encodeConstant(value)), new Map()), value)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('round-trips whole tables of every kind, built-ins and globals resolved in the decoding realm', () => {
    type Entry = { kind: 'constant'; value: string | number } | { kind: 'builtin'; name: string } | { kind: 'global'; name: string };
    const entry: fc.Arbitrary<Entry> = fc.oneof(
      fc.oneof(strings, numbers).map((value) => ({ kind: 'constant' as const, value })),
      builtinNames.map((name) => ({ kind: 'builtin' as const, name })),
      fc.constantFrom(...globalValues.keys()).map((name) => ({ kind: 'global' as const, name })),
    );
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 30 }), (entries) => {
        const tables = new ProgramTables(limits);
        const references = entries.map((each) => (each.kind === 'constant' ? tables.constant(each.value) : each.kind === 'builtin' ? tables.builtin(each.name) : tables.global(each.name)));
        const decoded = acrossTheBoundary(tables.constants).map((encoded) => decodeConstant(encoded, globalValues));
        entries.forEach((each, index) => {
          const value = decoded[Number(/^K\[(\d+)\]$/.exec(references[index] as string)?.[1])];
          const expected = each.kind === 'constant' ? each.value : each.kind === 'builtin' ? findBuiltin(each.name) : globalValues.get(each.name);
          expect(expected).toBeDefined();
          expect(Object.is(value, expected)).toBe(true);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('refuses to encode what is no literal constant, and to decode a malformed entry', () => {
    for (const value of [undefined, {}, [], () => 1, 1n, Symbol('s')]) expect(() => encodeConstant(value)).toThrow(/cannot be encoded/);
    for (const entry of [{}, { number: '1' }, { number: 'constructor' }, { builtin: 'no_such_builtin' }, { builtin: 'constructor' }, { global: 'missing' }, [1]]) {
      expect(() => decodeConstant(entry, globalValues)).toThrow(/constant table/);
    }
  });
});
