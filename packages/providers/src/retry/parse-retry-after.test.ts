import { describe, expect, it } from 'vitest';
import { parseRetryAfter, parseRetryDelayFromBody, readHeader } from './parse-retry-after.ts';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T04:00:00Z');

  it.each([
    [{ 'retry-after': '2' }, 2000],
    [{ 'Retry-After': '0.5' }, 500],
    [{ 'retry-after-ms': '1500', 'retry-after': '9' }, 1500],
    [{ 'retry-after': 'Sun, 22 Nov 2026 04:00:30 GMT' }, 30_000],
    [{ 'retry-after': 'Sun, 22 Nov 2026 03:59:00 GMT' }, 0],
    [{ 'retry-after': 'soon' }, undefined],
    [{ 'retry-after': '' }, undefined],
    [{}, undefined],
  ])('%j → %s', (headers, expected) => {
    expect(parseRetryAfter(headers, now)).toBe(expected);
  });

  it('reads Headers objects too', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '3' }), now)).toBe(3000);
    expect(readHeader(undefined, 'retry-after')).toBeUndefined();
  });

  it('reads the Gemini RetryInfo delay from an error body', () => {
    expect(parseRetryDelayFromBody('{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay": "27s"}')).toBe(27_000);
    expect(parseRetryDelayFromBody('{"retryDelay":"1.5s"}')).toBe(1500);
    expect(parseRetryDelayFromBody('nothing')).toBeUndefined();
  });
});
