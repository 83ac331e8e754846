import { describe, expect, it } from 'vitest';
import { codeForErrorNames } from './error-type-code.ts';

describe('codeForErrorNames', () => {
  it.each([
    [['invalid_request_error'], 'PROVIDER_BAD_REQUEST'],
    [['BadRequestError'], 'PROVIDER_BAD_REQUEST'],
    [['rate_limit_exceeded'], 'PROVIDER_RATE_LIMIT'],
    [['insufficient_quota'], 'PROVIDER_RATE_LIMIT'],
    [['invalid_api_key'], 'PROVIDER_AUTH'],
    [['permission_error'], 'PROVIDER_AUTH'],
    [['overloaded_error'], 'PROVIDER_SERVER'],
    [['api_error'], 'PROVIDER_SERVER'],
    [['timeout_error'], 'PROVIDER_SERVER'],
    [['request_too_large'], 'PROVIDER_BAD_REQUEST'],
    [['billing_error'], 'PROVIDER_BAD_REQUEST'],
    [['not_found_error'], 'PROVIDER_MODEL_NOT_FOUND'],
    // A type and a code name: the first row either matches wins.
    [['server_error', 'context_length_exceeded'], 'PROVIDER_BAD_REQUEST'],
  ])('codes %j as %s', (names, code) => {
    expect(codeForErrorNames(names)).toBe(code);
  });

  it('knows nothing of other names, nor of names that merely contain a known one', () => {
    expect(codeForErrorNames([])).toBeUndefined();
    expect(codeForErrorNames(['mystery_error'])).toBeUndefined();
    expect(codeForErrorNames(['not_invalid_request_error'])).toBeUndefined();
  });
});
