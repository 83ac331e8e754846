import fc from 'fast-check';
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
    // Byte escapes are bytes, as in Go: a run of them spells UTF-8 (they used to become Latin-1 characters, `cafÃ©`).
    ['caf\\xc3\\xa9', 'café'],
    ['\\xe2\\x82\\xac = \\342\\202\\254', '€ = €'],
    ['\\xf0\\x9f\\x98\\x80\\x41', '😀A'],
  ])('decodes %j', (input, expected) => {
    expect(decodeEscapes(input, () => expect.fail('unexpected bad escape'))).toBe(expected);
  });

  it('refuses a run of byte escapes that is no UTF-8 text, naming the whole run', () => {
    const bad: unknown[] = [];
    decodeEscapes('x \\xe9 y \\xc3\\x28 \\xc3\\xa9', (problem) => bad.push(problem));
    expect(bad).toEqual([
      { offset: 2, text: '\\xe9', reason: 'bytes' },
      { offset: 9, text: '\\xc3\\x28', reason: 'bytes' },
    ]);
  });

  it('decodes as UTF-8 what TextEncoder encodes, one byte escape per byte (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const escaped = [...new TextEncoder().encode(text)].map((byte, index) => (index % 2 === 0 ? `\\x${byte.toString(16).padStart(2, '0')}` : `\\${byte.toString(8).padStart(3, '0')}`)).join('');
        expect(decodeEscapes(escaped, () => expect.fail('unexpected bad escape'))).toBe(text);
      }),
    );
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
