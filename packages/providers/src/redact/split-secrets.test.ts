import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED } from './create-redactor.ts';

const key = 'sk-proj-ABCDEFGHIJKLMNOP1234';
const chunk = (content: string) => ({ id: 'chatcmpl-1', object: 'chat.completion.chunk', model: 'gpt-4.1', choices: [{ index: 0, delta: { content }, finish_reason: null }] });
const contents = (chunks: unknown): string => (chunks as ReturnType<typeof chunk>[]).map((item) => item.choices[0]!.delta.content).join('');

describe('a key split across the items of a list', () => {
  it('is scrubbed from every item it spans, the join reading as the redacted text', () => {
    // Before: no chunk held the whole key, so every piece stayed, and the chunks' texts joined gave the key back.
    const pieces = ['Your key is sk-p', 'roj-', 'ABCD', 'EFGHIJKLMNOP', '1234', ', keep it.'];
    const scrubbed = createRedactor([key]).value(pieces.map(chunk));
    expect(contents(scrubbed)).toBe(`Your key is ${REDACTED}, keep it.`);
    expect((scrubbed as ReturnType<typeof chunk>[]).map((item) => item.choices[0]!.delta.content)).toEqual(['Your key is [REDACTED]', '', '', '', '', ', keep it.']);
    expect(JSON.stringify(scrubbed)).not.toMatch(/roj-|ABCD|1234/);
  });

  it('is found across items of other kinds between them (a ping, an event without text)', () => {
    const events = [
      { type: 'content_block_delta', delta: { type: 'text_delta', text: `key: ${key.slice(0, 10)}` } },
      { type: 'ping' },
      { type: 'content_block_delta', delta: { type: 'thinking_delta', thinking: 'hm' } },
      { type: 'content_block_delta', delta: { type: 'text_delta', text: key.slice(10) } },
    ];
    const scrubbed = createRedactor([key]).value({ events }) as { events: typeof events };
    expect(JSON.stringify(scrubbed)).not.toContain(key.slice(0, 10));
    expect(JSON.stringify(scrubbed)).not.toContain(key.slice(10));
    expect(scrubbed.events[0]!.delta).toEqual({ type: 'text_delta', text: `key: ${REDACTED}` });
  });

  it('leaves a list without a split key as it was', () => {
    const pieces = ['sk-proj-', 'is how such keys begin; ', 'ABCD is not one'];
    expect(createRedactor([key]).value(pieces.map(chunk))).toEqual(pieces.map(chunk));
  });

  it('never lets a piece of a key through, however it is split', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9_-]{8,40}$/), fc.stringMatching(/^[ a-z0-9.,!]{0,20}$/), fc.stringMatching(/^[ a-z0-9.,!]{0,20}$/), fc.array(fc.nat(), { maxLength: 12 }), (secret, before, after, cuts) => {
        const text = `${before}${secret}${after}`;
        const at = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
        const pieces = [0, ...at].map((start, index) => text.slice(start, [...at, text.length][index]));
        const scrubbed = createRedactor([secret]).value(pieces.map(chunk));
        expect(contents(scrubbed).includes(secret)).toBe(false);
        expect(contents(scrubbed)).toBe(createRedactor([secret]).secretsOnly(text));
      }),
    );
  });
});

describe('a credential pattern split across the items of a list', () => {
  const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.tok3n';

  it('is scrubbed from every item it spans: a Bearer token, the header of a raw key, a ?key= parameter', () => {
    // Before: each chunk was scrubbed alone, and only `Bearer eyJh` was seen whole: the rest of the token stayed.
    for (const pieces of [
      ['curl -H "Authorization: Bearer eyJh', 'bGciOiJIUzI1NiJ9', '.tok3n" https://api'],
      ['Bear', 'er ', TOKEN, ' works'],
      ['x-api', '-key: ', TOKEN.slice(0, 5), TOKEN.slice(5), ', done'],
      ['GET /v1/m?ke', 'y=', TOKEN, '&alt=sse'],
    ]) {
      const text = pieces.join('');
      const scrubbed = createRedactor([]).value(pieces.map(chunk));
      expect(contents(scrubbed)).toBe(createRedactor([]).text(text));
      expect(JSON.stringify(scrubbed)).not.toMatch(/bGci|tok3n/);
    }
  });

  it('reads the join where an item alone misread a cut-off text, and keeps what only an item alone showed', () => {
    // `Authorization: Bear` alone reads as a raw key `Bear`; the join reads `Bearer eyJ…`, and cuts the token only.
    const split = createRedactor([]).value(['Authorization: Bear', `er ${TOKEN}`].map(chunk));
    expect(contents(split)).toBe(`Authorization: Bearer ${REDACTED}`);
    // `Bearer …` that starts an item is no credential in the join after `x` (no word boundary), yet it stays scrubbed:
    // the strings of a lane need not be one text.
    const glued = createRedactor([]).value(['x', `Bearer ${TOKEN}`, '-more'].map(chunk));
    expect(contents(glued)).toBe(`xBearer ${REDACTED}-more`);
  });

  it('replaces just what the redactor replaces in the whole text, for any text (the ranges of the join are exact)', () => {
    const secret = 'sk-span-0123456789';
    const words = fc.constantFrom('Bearer ', 'bearer\t', 'api_key', 'Api-Key', 'x-goog-api-key', 'authorization', ': ', '=', '"', ' ', '?key=', '&apikey=', 'abc', secret, secret.slice(0, 6));
    fc.assert(
      fc.property(fc.array(fc.oneof(words, fc.string()), { maxLength: 8 }), (parts) => {
        const text = parts.join('');
        const redactor = createRedactor([secret]);
        // Two items, the second empty: the first is cut by the ranges its join (itself) gives.
        expect(redactor.value([text, ''])[0]).toBe(redactor.text(text));
      }),
    );
  });

  it('never lets a piece of the token through, however the text is split', () => {
    const credentials = [
      (token: string) => `Authorization: Bearer ${token}`,
      (token: string) => `bearer ${token}`,
      (token: string) => `"x-api-key": "${token}"`,
      (token: string) => `api_key=${token}`,
      (token: string) => `https://h/v1/m?key=${token}&alt=sse`,
    ];
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9._-]{8,40}$/),
        fc.constantFrom(...credentials),
        fc.stringMatching(/^([ a-z0-9.,!]{0,20} )?$/),
        fc.stringMatching(/^([ ,;][ a-z0-9.,!]{0,20})?$/),
        fc.array(fc.nat(), { maxLength: 12 }),
        (token, credential, before, after, cuts) => {
          const text = `${before}${credential(token)}${after}`;
          const at = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
          const pieces = [0, ...at].map((start, index) => text.slice(start, [...at, text.length][index]));
          const scrubbed = createRedactor([]).value(pieces.map(chunk));
          expect(contents(scrubbed).includes(token)).toBe(false);
          expect(JSON.stringify(scrubbed).includes(token)).toBe(false);
          // Cut anywhere, `Bearer` and the header name too, the join reads as the whole text scrubbed.
          expect(contents(scrubbed)).toBe(createRedactor([]).text(text));
        },
      ),
    );
  });
});
