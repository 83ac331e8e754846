import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { add, numeric } from './arithmetic.ts';
import { compare } from './compare.ts';
import { scriptEquals } from './equals.ts';
import { DEFAULT_LIMITS } from './limits.ts';
import { renderValue, toText } from './render.ts';
import { ScriptError } from './script-error.ts';
import type { Value } from './value.ts';

const where = { line: 1, column: 1 };

/** Arbitrary script values, containers included. */
const value: fc.Arbitrary<Value> = fc.letrec<{ value: Value }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true }),
    fc.integer().map(Number),
    fc.string(),
    fc.constantFrom('5', '5.0', ' 7 ', '', 'false', '0'),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(fc.tuple(fc.string({ maxLength: 3 }), tie('value')), { maxLength: 4 }).map((entries) => new Map(entries)),
  ),
})).value;

describe('value operators (properties)', () => {
  it('== is symmetric', () => {
    fc.assert(fc.property(value, value, (a, b) => {
        expect(scriptEquals(a, b)).toBe(scriptEquals(b, a));
      }));
  });

  it('== is reflexive (values without NaN)', () => {
    fc.assert(fc.property(value, (a) => {
        expect(scriptEquals(a, a)).toBe(true);
      }));
  });

  it('+ on numbers matches JavaScript', () => {
    fc.assert(fc.property(fc.double(), fc.double(), (a, b) => {
        expect(Object.is(add(a, b, where, DEFAULT_LIMITS), a + b)).toBe(true);
      }));
  });

  it('- * ** on numbers match JavaScript', () => {
    fc.assert(
      fc.property(fc.double(), fc.double(), (a, b) => {
        expect(Object.is(numeric('-', a, b, where), a - b)).toBe(true);
        expect(Object.is(numeric('*', a, b, where), a * b)).toBe(true);
        expect(Object.is(numeric('**', a, b, where), a ** b)).toBe(true);
      }),
    );
  });

  it('rendering is deterministic and independent of map insertion order', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ maxLength: 4 }), fc.integer()), { maxLength: 6 }), (entries) => {
        const forward = new Map<string, Value>(entries);
        const backward = new Map<string, Value>([...forward.entries()].reverse());
        expect(renderValue(forward)).toBe(renderValue(backward));
        expect(renderValue(forward)).toBe(renderValue(new Map(forward)));
      }),
    );
  });

  it('ordering either fails with SCRIPT_TYPE_MISMATCH or agrees with the numbers', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        try {
          const less = compare('<', a, b, where);
          expect(typeof less).toBe('boolean');
        } catch (error) {
          expect(error).toBeInstanceOf(ScriptError);
          expect((error as ScriptError).code).toBe('SCRIPT_TYPE_MISMATCH');
        }
      }),
    );
  });

  it('toText is the raw string for strings and "" for nil', () => {
    fc.assert(fc.property(fc.string(), (s) => {
        expect(toText(s)).toBe(s);
      }));
    expect(toText(null)).toBe('');
    expect(renderValue(null)).toBe('nil');
  });
});
