/** A halt's message says a failure's code once, and replay reads a recording that said it twice as saying it once. */
import { describe, expect, it } from 'vitest';
import { failureLine, withCodeOnce } from './failure-line.ts';

describe('failureLine and withCodeOnce', () => {
  it('say a code once, and undo every doubled form failureLine no longer writes (review: `X: X: m` was left as it was)', () => {
    const cases = [
      { code: 'PROVIDER_SERVER', message: '[acme:m] PROVIDER_SERVER: HTTP 500' },
      { code: 'PROVIDER_CONFIG', message: 'PROVIDER_CONFIG: no API key' },
      { code: 'SCRIPT_TIMEOUT', message: 'The program ran longer than 1000 ms' },
    ];
    for (const failure of cases) {
      const now = failureLine(failure);
      // An old recording prefixed the code whatever the message said; read back, it is what failureLine writes now.
      expect(withCodeOnce(`${failure.code}: ${failure.message}`)).toBe(now);
      expect(withCodeOnce(now)).toBe(now);
    }
    expect(failureLine(cases[2]!)).toBe('SCRIPT_TIMEOUT: The program ran longer than 1000 ms');
    expect(withCodeOnce('PROVIDER_CONFIG: PROVIDER_CONFIG: no API key')).toBe('PROVIDER_CONFIG: no API key');
  });
});
