import { describe, expect, it } from 'vitest';
import { createRedact, redactError, REDACTED, serverSecrets } from './redact-secrets.ts';

describe('serverSecrets', () => {
  it('takes every env value of a stdio server, and every header value of an HTTP server with the credential after its scheme', () => {
    expect(serverSecrets({ command: 'x', env: { TOKEN: 'abcdefgh12', DEBUG: '0' } })).toEqual(['abcdefgh12', '0']);
    expect(serverSecrets({ url: 'http://127.0.0.1/mcp', headers: { Authorization: 'Bearer tok-123456789', 'X-Team': 'blue' } })).toEqual(['Bearer tok-123456789', 'tok-123456789', 'blue']);
  });
});

describe('createRedact', () => {
  const redact = createRedact(['tok-123456789', 'a"quoted\\secret', '0', 'info']);

  it('replaces the secrets, also URL- and JSON-escaped', () => {
    expect(redact('key tok-123456789 refused')).toBe(`key ${REDACTED} refused`);
    expect(redact(`?t=${encodeURIComponent('a"quoted\\secret')}`)).toBe(`?t=${REDACTED}`);
    expect(redact(JSON.stringify({ m: 'a"quoted\\secret' }))).toBe(`{"m":"${REDACTED}"}`);
  });

  it('takes a secret holding a lone surrogate, its URL form as a URL sends it (was a URIError)', () => {
    const odd = 'tok-\uDC00-123456789';
    const url = new URL('http://127.0.0.1/mcp');
    url.searchParams.set('t', odd);
    const redactOdd = createRedact([odd]);
    expect(redactOdd(`key ${odd} refused`)).toBe(`key ${REDACTED} refused`);
    expect(redactOdd(url.search)).toBe(`?t=${REDACTED}`);
    expect(redactOdd(new TextDecoder().decode(new TextEncoder().encode(`bad token ${odd}`)))).toBe(`bad token ${REDACTED}`);
  });

  it('leaves values shorter than 8 characters alone, so ordinary text stays readable', () => {
    expect(redact('exit code 0, level info')).toBe('exit code 0, level info');
  });

  it('replaces credential-looking text it was not told about', () => {
    expect(redact('Authorization: Bearer xyz')).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(redact('{"api_key":"k1"}')).toBe(`{"api_key":"${REDACTED}"}`);
    expect(redact('https://x.test/v1?key=AIzaXYZ&alt=sse')).toBe(`https://x.test/v1?key=${REDACTED}&alt=sse`);
    expect(redact('Incorrect API key provided: sk-proj-abcdefghijklmnop1234.')).toBe(`Incorrect API key provided: ${REDACTED}.`);
    expect(redact(`token ghp_${'a'.repeat(36)} revoked`)).toBe(`token ${REDACTED} revoked`);
  });
});

describe('redactError', () => {
  it('scrubs message, stack and data down the cause chain, keeping the class', () => {
    class SdkError extends Error {
      data: unknown = { body: 'bad tok-123456789' };
    }
    const inner = new Error('inner tok-123456789');
    const outer = new SdkError('outer tok-123456789', { cause: inner });
    redactError(outer, createRedact(['tok-123456789']));
    expect(outer).toBeInstanceOf(SdkError);
    expect([outer.message, outer.stack, JSON.stringify(outer.data), inner.message, inner.stack].join('\n')).not.toContain('tok-123456789');
    expect(outer.message).toBe(`outer ${REDACTED}`);
  });
});
