import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor, REDACTED } from './create-redactor.ts';

describe('createRedactor', () => {
  const key = 'sk-proj-ABCDEFGHIJKLMNOP1234';
  const redactor = createRedactor([key, undefined]);

  it('scrubs the configured key, URL-encoded forms and credential patterns', () => {
    expect(redactor.text(`Incorrect API key provided: ${key}.`)).toBe(`Incorrect API key provided: ${REDACTED}.`);
    expect(redactor.text('Authorization: Bearer other-token-123')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redactor.text('x-api-key: sk-ant-whatever')).toBe(`x-api-key: ${REDACTED}`);
    expect(redactor.text('"x-goog-api-key":"AIzaXYZ"')).toBe(`"x-goog-api-key":"${REDACTED}"`);
    expect(redactor.text('GET /v1/models/x:generateContent?key=AIzaXYZ&alt=sse')).toBe(`GET /v1/models/x:generateContent?key=${REDACTED}&alt=sse`);
    expect(createRedactor(['a/b+c=d']).text('?k=a%2Fb%2Bc%3Dd')).toBe(`?k=${REDACTED}`);
  });

  it('scrubs a key configured with white space around it in its trimmed form too (what HTTP sends and a server echoes)', () => {
    const padded = createRedactor([` ${key}\r\n`]);
    expect(padded.text(`Incorrect API key provided: ${key}.`)).toBe(`Incorrect API key provided: ${REDACTED}.`);
    expect(padded.text(`?k=${encodeURIComponent(key)}`)).toBe(`?k=${REDACTED}`);
  });

  it('leaves ordinary text alone', () => {
    expect(redactor.text('The answer is 42. Keys are fine to mention.')).toBe('The answer is 42. Keys are fine to mention.');
    expect(createRedactor(['ab']).text('abc')).toBe('abc');
  });

  it('deep-copies values, scrubbing strings and credential-named fields', () => {
    const raw = { headers: { authorization: 'whatever', 'X-Api-Key': 'k' }, list: [`has ${key}`], nested: { apiKey: 'x', n: 1 } };
    expect(redactor.value(raw)).toEqual({
      headers: { authorization: REDACTED, 'X-Api-Key': REDACTED },
      list: [`has ${REDACTED}`],
      nested: { apiKey: REDACTED, n: 1 },
    });
    expect(raw.list[0]).toContain(key);
  });

  it('survives cycles', () => {
    const cyclic: Record<string, unknown> = { text: key };
    cyclic['self'] = cyclic;
    const copy = redactor.value(cyclic) as Record<string, unknown>;
    expect(copy['text']).toBe(REDACTED);
    expect(copy['self']).toBe(copy);
  });

  it('takes a key holding a lone surrogate, and scrubs its URL form as a URL sends it (was a URIError from every redactor made for it)', () => {
    const odd = 'sk-odd-\uD800-key-1234';
    const redactor = createRedactor([odd]);
    const url = new URL('https://example.test/v1');
    url.searchParams.set('key', odd);
    expect(url.search).toContain('%EF%BF%BD');
    expect(redactor.text(`bad key ${odd}`)).toBe(`bad key ${REDACTED}`);
    expect(redactor.text(`GET ${url.pathname}${url.search}`)).toBe(`GET /v1?key=${REDACTED}`);
    // Echoed by a server: what it received was UTF-8, where the lone half is U+FFFD.
    const echoed = new TextDecoder().decode(new TextEncoder().encode(`Incorrect API key provided: ${odd}`));
    expect(redactor.text(echoed)).toBe(`Incorrect API key provided: ${REDACTED}`);
  });

  /** Any UTF-16 code unit, so halves of surrogate pairs alone too. */
  const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
  it('is made for any key at all, lone surrogates included, and never lets it through', () => {
    fc.assert(
      fc.property(fc.string({ unit: codeUnit, minLength: 4, maxLength: 30 }), fc.string({ unit: codeUnit }), (secret, around) => {
        const output = createRedactor([secret]).secretsOnly(`${around}${secret}${around}`);
        // Between the marks, not across them: the mark and its neighbours may spell a random "key" (`ED]x`).
        expect(output.split(REDACTED).some((part) => part.includes(secret))).toBe(false);
      }),
    );
  });

  // Keys drawn from a key-like alphabet: a "secret" such as `TED]abc` could be
  // re-formed from the `[REDACTED]` marker and its neighbours, which no real key is.
  it('never lets a key through, wherever it sits in a string', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9_-]{8,40}$/), fc.string(), fc.string(), (secret, before, after) => {
        const output = createRedactor([secret]).text(`${before}${secret}${after}`);
        expect(output.includes(secret)).toBe(false);
      }),
    );
  });
});

describe('createRedactor fast paths', () => {
  const redactor = createRedactor(['sk-fast-path-secret']);

  it('scrubs credential patterns in any letter case, and leaves strings without one as they are', () => {
    for (const [input, output] of [
      ['AUTHORIZATION: raw-token-value', `AUTHORIZATION: ${REDACTED}`],
      ['bearer abc.def', `bearer ${REDACTED}`],
      ['API_KEY=xyz', `API_KEY=${REDACTED}`],
      ['https://h/p?Key=abc&x=1', `https://h/p?Key=${REDACTED}&x=1`],
      ['chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT', 'chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT'],
      ['a key, a bear, an api', 'a key, a bear, an api'],
    ] as const) {
      expect(redactor.text(input)).toBe(output);
    }
  });

  it('gives the same result as applying every pattern, for any string', () => {
    const slow = (value: string): string =>
      [
        [/\b(Bearer\s+)[^\s"',;]+/gi, `$1${REDACTED}`],
        [/\b(x-api-key|x-goog-api-key|api[-_]?key|authorization)(["']?\s*[:=]\s*["']?)(?!Bearer\s)([^\s"',;&]+)/gi, `$1$2${REDACTED}`],
        [/([?&](?:key|api_key|apikey)=)[^&#\s"']+/gi, `$1${REDACTED}`],
      ].reduce((text, [pattern, replacement]) => text.replace(pattern as RegExp, replacement as string), value);
    const words = fc.constantFrom('Bearer ', 'bearer\t', 'api_key', 'Api-Key', 'APIKEY', 'x-goog-api-key', 'authorization', '?key=', '&apikey=', ': ', '=', '"', ' ', 'abc', 'K3Y');
    fc.assert(
      fc.property(fc.array(fc.oneof(words, fc.string()), { maxLength: 8 }), (parts) => {
        const input = parts.join('');
        expect(createRedactor([]).text(input)).toBe(slow(input));
      }),
    );
  });
});
