import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composeEnvelope } from './compose-envelope.ts';
import { EnvelopeStreamParser } from './envelope-stream-parser.ts';
import { isEnvelopeError } from './errors.ts';
import { extractEnvelope } from './extract-envelope.ts';
import { markerLine, SECTION_NAMES } from './markers.ts';
import { parseEnvelope } from './parse-envelope.ts';

/** Section text as compose and parse agree on it: no `\r`, no marker lines, no trailing white space. */
const body = fc
  .array(fc.oneof(fc.string({ unit: 'grapheme' }), fc.constantFrom('', '  indented', '<<<LOOP:DONE>>> x', 'emit "a"')), { maxLength: 6 })
  .map((lines) => lines.join('\n').replace(/\r/g, '').replace(/<<<NSENV/g, '<<NSENV').replace(/[\s]+$/u, ''))
  .filter((text) => text.trimEnd() === text);

const nonEmptyBody = body.filter((text) => text.length > 0);

/** Random envelope-ish text: markers, content lines, blank lines, CRLF. */
const envelopeLike = fc
  .array(
    fc.oneof(
      fc.constantFrom(...['START', ...SECTION_NAMES, 'END'].map((name) => markerLine(name as 'START'))),
      fc.string({ unit: 'grapheme', maxLength: 12 }),
      fc.constantFrom('', '  ', '<<<NSENV:V3:START>>>', '  <<<NSENV:V4:ACTIONS>>>  '),
    ),
    { maxLength: 14 },
  )
  .chain((lines) => fc.constantFrom('\n', '\r\n').map((newline) => lines.join(newline)))
  .map((text) => (text.startsWith(markerLine('START')) ? text : `${markerLine('START')}\n${text}`));

function outcome(run: () => unknown): unknown {
  try {
    return { ok: run() };
  } catch (error) {
    if (!isEnvelopeError(error)) throw error;
    return { code: error.code, line: error.line };
  }
}

describe('parseEnvelope properties', () => {
  it('round-trips whatever composeEnvelope writes', () => {
    fc.assert(
      fc.property(nonEmptyBody, body, body, nonEmptyBody, (userdata, scratchpad, output, actions) => {
        const text = composeEnvelope({ userdata, scratchpad, output, actions });
        expect(parseEnvelope(text)).toEqual({
          envelope: { userdata, scratchpad: scratchpad || null, output: output || null, actions },
          lints: [],
        });
      }),
    );
  });

  it('throws only its own errors, on any text or bytes', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), envelopeLike), (text) => {
        outcome(() => parseEnvelope(text));
        outcome(() => extractEnvelope(text));
      }),
    );
    fc.assert(fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => void outcome(() => parseEnvelope(bytes))));
  });

  it('once complete, says how much of what was pushed came after the END line, whatever the chunking', () => {
    const envelope = fc.tuple(nonEmptyBody, body, nonEmptyBody, fc.constantFrom('\n', '\r\n')).map(([userdata, output, actions, newline]) =>
      composeEnvelope({ userdata, output, actions }).replaceAll('\n', newline),
    );
    fc.assert(
      fc.property(envelope, fc.string({ maxLength: 30 }), fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1 }), (text, after, sizes) => {
        const input = text + after;
        const parser = new EnvelopeStreamParser();
        let pushed = '';
        for (let offset = 0, turn = 0; offset < input.length && parser.result === undefined; turn += 1) {
          const chunk = input.slice(offset, offset + sizes[turn % sizes.length]!);
          pushed += chunk;
          offset += chunk.length;
          parser.push(chunk);
        }
        // The END line completes inside what was pushed; what follows it, and only that, is trailing.
        expect(parser.result).toEqual(parseEnvelope(text));
        expect(pushed.slice(0, pushed.length - parser.trailingLength)).toBe(text);
      }),
    );
    expect(new EnvelopeStreamParser().trailingLength).toBe(0);
  });

  it('gives the one-shot result from any chunking of the stream', () => {
    fc.assert(
      fc.property(envelopeLike, fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1 }), fc.boolean(), (text, sizes, asBytes) => {
        const input: string | Uint8Array = asBytes ? new TextEncoder().encode(text) : text;
        const expected = outcome(() => parseEnvelope(input));
        const parser = new EnvelopeStreamParser();
        const actual = outcome(() => {
          let turn = 0;
          for (let offset = 0; offset < input.length; turn += 1) {
            const size = sizes[turn % sizes.length]!;
            if (parser.push(input.slice(offset, offset + size)) === 'complete') return parser.result;
            offset += size;
          }
          return parser.end();
        });
        expect(actual).toEqual(expected);
      }),
    );
  });
});
