import { describe, expect, it } from 'vitest';
import { copyPlainData, NotPlainDataError } from './plain-data.ts';

/** The error `copyPlainData` throws for `value`. */
function refusal(value: unknown): NotPlainDataError {
  try {
    copyPlainData(value);
  } catch (error) {
    if (error instanceof NotPlainDataError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('copyPlainData', () => {
  it('copies plain data: undefined and holes as null, -0 as 0, a __proto__ key as data', () => {
    const input = JSON.parse('{"__proto__": {"a": [1, "x", true, null]}}') as Record<string, unknown>;
    const copy = copyPlainData(input) as Record<string, unknown>;
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect(copy).not.toBe(input);
    const list = copyPlainData([undefined, , -0, { a: undefined }]) as unknown[];
    expect(Object.hasOwn(list, 1)).toBe(true);
    expect(list).toEqual([null, null, 0, { a: null }]);
    expect(Object.is(list[2], 0)).toBe(true);
  });

  it('names the kind and the place of what it refuses, never the content', () => {
    const cases: [unknown, string][] = [
      [{ a: [Number.NaN] }, 'a non-finite number (NaN) at $.a[0] is not plain data'],
      [{ when: new Date(0) }, 'a Date at $.when is not plain data; return text, e.g. date.toISOString()'],
      [new Map([['secret', 'hunter2']]), 'a Map at $ is not plain data'],
      [{ toJSON: () => 'hunter2' }, 'an object with a toJSON method at $ is not plain data; toJSON is not called: return what it returns'],
      [[Symbol('hunter2')], 'a symbol at $[0] is not plain data'],
    ];
    for (const [value, message] of cases) {
      const error = refusal(value);
      expect([error.reason, error.message.startsWith(message)]).toEqual(['invalid', true]);
      expect(error.message).not.toContain('hunter2');
    }
  });

  it('refuses lists and maps nested more than 100 levels, before the stack can overflow', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    const error = refusal(deep);
    expect(error.reason).toBe('nested');
    expect(error.message).toMatch(/^a value nested more than 100 levels deep at \$\[0\]/);
  });
});
