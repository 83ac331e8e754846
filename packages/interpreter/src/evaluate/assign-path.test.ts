/**
 * `assignOne` (the generated code's `set x[key] = value`) is `assignPath` with
 * a one-step path: same result, same error, same in-place behaviour.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveLimits, ScriptError, type Value } from '../runtime/index.ts';
import { assignOne, assignPath } from './assign-path.ts';

const where = { line: 3, column: 7 };
const limits = resolveLimits({ collectionSize: 6, stringLength: 20 });

const scalar = fc.oneof(fc.constant(null), fc.boolean(), fc.integer({ min: -2, max: 8 }).map(Number), fc.double({ noNaN: false }), fc.constantFrom('', 'a', '2', ' 3 ', 'long key past the string limit'));
const container = fc.oneof(
  scalar,
  fc.array(scalar, { maxLength: 4 }),
  fc.array(fc.tuple(fc.constantFrom('a', 'b', '1'), scalar), { maxLength: 3 }).map((entries) => new Map<string, Value>(entries)),
);
const key = fc.oneof(scalar, fc.array(scalar, { maxLength: 2 }));

/** The result, or the error's code, message and position. */
function outcome(run: () => Value): unknown {
  try {
    const value = run();
    return { value: value instanceof Map ? [...value] : value };
  } catch (error) {
    if (!(error instanceof ScriptError)) throw error;
    return { code: error.code, message: error.message, line: error.line, column: error.column };
  }
}

/** A deep copy, so each side gets its own containers. */
function copy(value: Value): Value {
  if (Array.isArray(value)) return value.map(copy);
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, copy(v)]));
  return value;
}

describe('assignOne', () => {
  it('gives what assignPath gives for a one-step path', () => {
    fc.assert(
      fc.property(container, key, fc.boolean(), scalar, fc.boolean(), (target, index, field, value, inPlace) => {
        const left = copy(target);
        const right = copy(target);
        const one = outcome(() => assignOne(left, index, field, where, value, limits, inPlace));
        const path = outcome(() => assignPath(right, [{ key: index, field, where }], 0, value, limits, inPlace));
        expect(one).toEqual(path);
        // In place or copied alike: the original container ends up the same on both sides.
        expect(outcome(() => left)).toEqual(outcome(() => right));
      }),
      { numRuns: 2000 },
    );
  });
});
