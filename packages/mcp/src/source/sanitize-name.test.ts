import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeName, sanitizeNames } from './sanitize-name.ts';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

describe('sanitizeName', () => {
  it('keeps identifiers and replaces other characters', () => {
    expect(sanitizeName('get_sum')).toBe('get_sum');
    expect(sanitizeName('get-sum')).toBe('get_sum');
    expect(sanitizeName('read.file')).toBe('read_file');
    expect(sanitizeName('2fa')).toBe('_2fa');
    expect(sanitizeName('')).toBe('_');
    expect(sanitizeName('é')).toBe('_');
  });

  it('always gives an identifier (property)', () => {
    fc.assert(fc.property(fc.string(), (name) => IDENTIFIER.test(sanitizeName(name))));
  });
});

describe('sanitizeNames', () => {
  it('suffixes later names that collide, ignoring case', () => {
    expect(sanitizeNames(['get-sum', 'get_sum', 'GET_SUM', 'get_sum_2'])).toEqual(['get_sum', 'get_sum_2', 'GET_SUM_3', 'get_sum_2_2']);
  });

  it('gives distinct identifiers, case-insensitively, and leaves identifiers that do not collide alone (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 12 }), (names) => {
        const result = sanitizeNames(names);
        expect(result).toHaveLength(names.length);
        expect(new Set(result.map((name) => name.toLowerCase())).size).toBe(result.length);
        for (const name of result) expect(name).toMatch(IDENTIFIER);
        if (names.length > 0 && IDENTIFIER.test(names[0] as string)) expect(result[0]).toBe(names[0]);
      }),
    );
  });
});
