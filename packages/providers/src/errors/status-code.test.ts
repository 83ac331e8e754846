import { describe, expect, it } from 'vitest';
import { codeForStatus } from './status-code.ts';

describe('codeForStatus', () => {
  it.each([
    [400, 'PROVIDER_BAD_REQUEST'],
    [401, 'PROVIDER_AUTH'],
    [403, 'PROVIDER_AUTH'],
    [404, 'PROVIDER_MODEL_NOT_FOUND'],
    [408, 'PROVIDER_SERVER'],
    [409, 'PROVIDER_SERVER'],
    [413, 'PROVIDER_BAD_REQUEST'],
    [422, 'PROVIDER_BAD_REQUEST'],
    [429, 'PROVIDER_RATE_LIMIT'],
    [500, 'PROVIDER_SERVER'],
    [503, 'PROVIDER_SERVER'],
    [529, 'PROVIDER_SERVER'],
  ])('%i → %s', (status, code) => {
    expect(codeForStatus(status)).toBe(code);
  });
});
