import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composeEnvelope, neutralizeMarkerLines } from './compose-envelope.ts';
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

/** USERDATA text of the spec's shape `{ subject, brief?, fields }`, on one line or pretty-printed over several. */
const userdataText = fc
  .tuple(fc.string({ unit: 'grapheme' }), fc.option(fc.string()), fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }), fc.constantFrom(0, 2, '\t'))
  .map(([subject, brief, fields, indent]) => JSON.stringify({ subject, ...(brief === null ? {} : { brief }), fields }, null, indent));

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

/** Text rich in what trips codecs: every line end, BOM, NUL, lone and paired surrogates, U+2028/9, markers. */
const hostileText = fc
  .array(
    fc.oneof(
      fc.constantFrom('\r', '\r\n', '\n', '\uFEFF', '\u0000', '\uD800', '\uDC00', '\uD83D\uDE00', '\u2028', '\u2029', '\u00a0', 'é', '€', ' ', '\t', '\v', '\\'),
      fc.constantFrom('<<<LOOP:DONE>>>', markerLine('END'), markerLine('OUTPUT'), markerLine('START'), '<<<NSENV:V3:START>>>'),
      fc.string({ maxLength: 4 }),
    ),
    { maxLength: 16 },
  )
  .map((pieces) => pieces.join(''));

/** No lone surrogate: only such text has UTF-8 bytes that decode back to it (the package's lib predates `isWellFormed`). */
const isWellFormed = (text: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

/** Envelope-ish text built of hostile lines, joined by `\n`, `\r\n` or a lone `\r`. */
const hostileEnvelope = fc
  .tuple(
    fc.array(fc.oneof(fc.constantFrom(...['START', ...SECTION_NAMES, 'END'].map((name) => markerLine(name as 'START'))), hostileText), { maxLength: 10 }),
    fc.constantFrom('\n', '\r\n', '\r'),
    fc.boolean(),
  )
  .map(([lines, newline, withStart]) => `${withStart ? `${markerLine('START')}\n` : ''}${lines.join(newline)}`);

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
      fc.property(userdataText, body, body, nonEmptyBody, (userdata, scratchpad, output, actions) => {
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
    const envelope = fc.tuple(userdataText, body, nonEmptyBody, fc.constantFrom('\n', '\r\n')).map(([userdata, output, actions, newline]) =>
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
  it('round-trips hostile section text once its marker lines are neutralized (less trailing white space, \\r\\n read as \\n)', () => {
    const read = (text: string) => text.replace(/\r\n/g, '\n').replace(/[ \t\r\n]+$/, '');
    fc.assert(
      fc.property(hostileText, hostileText, hostileText, hostileText, fc.constantFrom(0, 1), (userdata, scratchpad, output, actions, indent) => {
        // USERDATA is JSON of the spec's shape: hostile text reaches it inside its strings.
        const json = JSON.stringify({ subject: userdata, fields: { [userdata]: userdata } }, null, indent);
        const [u, s, o, a] = [json, scratchpad, output, `a${actions}`].map(neutralizeMarkerLines) as [string, string, string, string];
        const text = composeEnvelope({ userdata: u, scratchpad: s, output: o, actions: a });
        const { envelope } = parseEnvelope(text);
        expect(envelope).toEqual({ userdata: read(u), scratchpad: s === '' ? null : read(s), output: o === '' ? null : read(o), actions: read(a) });
        if (isWellFormed(text)) expect(parseEnvelope(new TextEncoder().encode(text)).envelope).toEqual(envelope);
      }),
      { numRuns: 500 },
    );
  });

  it('gives the one-shot result for hostile text split at every position, and its bytes split at every byte', () => {
    // Messages too: an early failure must say what the one-shot parse says.
    const withMessage = (run: () => unknown) => {
      try {
        return { ok: run() };
      } catch (error) {
        if (!isEnvelopeError(error)) throw error;
        return { code: error.code, line: error.line, message: error.message };
      }
    };
    const stream = (chunks: Array<string | Uint8Array>) => {
      const parser = new EnvelopeStreamParser();
      return withMessage(() => {
        for (const chunk of chunks) if (parser.push(chunk) === 'complete') return parser.result;
        return parser.end();
      });
    };
    fc.assert(
      fc.property(hostileEnvelope, (text) => {
        const expected = withMessage(() => parseEnvelope(text));
        for (let at = 0; at <= text.length; at += 1) expect(stream([text.slice(0, at), text.slice(at)])).toEqual(expected);
        if (!isWellFormed(text)) return;
        const bytes = new TextEncoder().encode(text);
        const expectedBytes = withMessage(() => parseEnvelope(bytes));
        for (let at = 0; at <= bytes.length; at += 1) expect(stream([bytes.subarray(0, at), bytes.subarray(at)])).toEqual(expectedBytes);
      }),
      { numRuns: 400 },
    );
  });
});
