import { describe, expect, it } from 'vitest';
import { isProviderError, ProviderError } from './provider-error.ts';
import { PROVIDER_ERROR_CODES } from './provider-error-code.ts';

describe('ProviderError', () => {
  it('names provider and model in the message and keeps the detail', () => {
    const error = new ProviderError({ code: 'PROVIDER_AUTH', provider: 'openai', model: 'gpt-4.1-mini', message: 'HTTP 401: bad key', status: 401 });
    expect(error.message).toBe('[openai:gpt-4.1-mini] PROVIDER_AUTH: HTTP 401: bad key');
    expect(error.detail).toBe('HTTP 401: bad key');
    expect(error.retryable).toBe(false);
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ name: 'ProviderError', code: 'PROVIDER_AUTH', provider: 'openai', model: 'gpt-4.1-mini', status: 401 });
  });

  it('derives retryable from the code', () => {
    expect(new ProviderError({ code: 'PROVIDER_RATE_LIMIT', message: 'x' }).retryable).toBe(true);
    expect(new ProviderError({ code: 'PROVIDER_SERVER', message: 'x' }).retryable).toBe(true);
    expect(new ProviderError({ code: 'PROVIDER_TIMEOUT', message: 'x' }).retryable).toBe(false);
  });

  it('is recognised across package copies through the global symbol marker', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('askloop.providers.error')]: true });
    expect(isProviderError(foreign)).toBe(true);
    expect(ProviderError.isInstance(new ProviderError({ code: 'PROVIDER_UNKNOWN', message: 'x' }))).toBe(true);
    expect(isProviderError(new Error('x'))).toBe(false);
    expect(isProviderError(null)).toBe(false);
  });

  // An Error given as the cause (its name and message are not its own enumerable fields) was written as `{}`.
  it('writes its cause as name and message in JSON, an Error too', () => {
    const error = new ProviderError({ code: 'PROVIDER_UNKNOWN', message: 'x', cause: new TypeError('socket hang up') });
    expect(JSON.parse(JSON.stringify(error)).cause).toEqual({ name: 'TypeError', message: 'socket hang up' });
    expect(new ProviderError({ code: 'PROVIDER_UNKNOWN', message: 'x' }).toJSON().cause).toBeUndefined();
  });

  it('lists its codes sorted and without duplicates', () => {
    expect([...PROVIDER_ERROR_CODES]).toEqual([...new Set(PROVIDER_ERROR_CODES)].sort());
  });
});
