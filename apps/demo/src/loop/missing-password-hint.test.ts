import { describe, expect, it } from 'vitest';
import { missingPasswordHint } from './open-postgres-store.ts';

describe('missingPasswordHint', () => {
  it("turns pg's words for a password the server asked for and nobody gave into what to do", () => {
    expect(missingPasswordHint('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string')).toBe(
      '; the server asks for a password and none was given: set PGPASSWORD, add it to ~/.pgpass, or put it in the URL (percent-encoded)',
    );
    expect(missingPasswordHint('password authentication failed for user "askloop"')).toBe('');
  });
});
