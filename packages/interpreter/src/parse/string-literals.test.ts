import { describe, expect, it } from 'vitest';
import { decodeEscapes, splitInterpolation } from './string-literals.ts';

describe('decodeEscapes', () => {
  it.each([
    ['plain', 'plain'],
    ['a\\tb\\nc', 'a\tb\nc'],
    ['\\"q\\" \\\'s\\\'', '"q" \'s\''],
    ['back\\\\slash', 'back\\slash'],
    ['\\x41\\u00e9\\101\\12', 'Aé\u0041\n'],
    ['\\~\\`\\/', '~`/'],
    ['line\\\ncontinued', 'linecontinued'],
    ['\\b\\f\\r\\v', '\b\f\r\v'],
  ])('decodes %j', (input, expected) => {
    expect(decodeEscapes(input, () => expect.fail('unexpected bad escape'))).toBe(expected);
  });

  it('reports unknown escapes with their offset and keeps going', () => {
    const bad: unknown[] = [];
    expect(decodeEscapes('a\\qb\\zc', (problem) => bad.push(problem))).toBe('aqbzc');
    expect(bad).toEqual([
      { offset: 1, text: '\\q' },
      { offset: 4, text: '\\z' },
    ]);
  });
});

describe('splitInterpolation', () => {
  it('splits text and trimmed holes with offsets', () => {
    expect(splitInterpolation('Hi {{ name }}!')).toEqual([
      { kind: 'text', value: 'Hi ', offset: 0 },
      { kind: 'hole', text: 'name', offset: 6 },
      { kind: 'text', value: '!', offset: 13 },
    ]);
  });

  it('resolves symbols, drops empty holes, keeps unknown symbols and unterminated holes literal', () => {
    expect(splitInterpolation('a{{@nl}}b{{}}c{{@zz}}d{{@tbt}}{{@tdq}} {{ open')).toEqual([
      { kind: 'text', value: 'a\nbc{{@zz}}d```""" {{ open', offset: 0 },
    ]);
  });
});
