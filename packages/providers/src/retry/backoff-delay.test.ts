import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { backoffDelay } from './backoff-delay.ts';
import { resolveRetrySettings } from './resolve-retry-settings.ts';

describe('backoffDelay', () => {
  it('doubles from the initial delay, with half of it jittered', () => {
    const fixed = (random: number) => resolveRetrySettings({ initialDelayMs: 100, maxDelayMs: 10_000, random: () => random });
    expect([1, 2, 3].map((retry) => backoffDelay(retry, fixed(0)))).toEqual([50, 100, 200]);
    expect([1, 2, 3].map((retry) => backoffDelay(retry, fixed(0.999999)))).toEqual([100, 200, 400]);
  });

  it('always stays within [cap/2, cap]', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), (retry, random) => {
        const settings = resolveRetrySettings({ initialDelayMs: 250, maxDelayMs: 8000, random: () => random });
        const delay = backoffDelay(retry, settings);
        const cap = Math.min(8000, 250 * 2 ** (retry - 1));
        expect(delay).toBeGreaterThanOrEqual(Math.floor(cap / 2));
        expect(delay).toBeLessThanOrEqual(cap);
      }),
    );
  });

  it('resolves defaults, later layers winning and undefined ignored', () => {
    const settings = resolveRetrySettings({ maxRetries: 5 }, { maxRetries: undefined, initialDelayMs: 10 });
    expect(settings).toMatchObject({ maxRetries: 5, initialDelayMs: 10, maxDelayMs: 20_000, maxRetryAfterMs: 60_000 });
  });
});
