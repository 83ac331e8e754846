import { describe, expect, it } from 'vitest';
import { REDACTED } from './create-redactor.ts';
import { redactorCache } from './redactor-cache.ts';

describe('redactorCache', () => {
  it('reuses the redactor while the secrets stay the same, and builds a new one when they change', () => {
    const redactorFor = redactorCache();
    const first = redactorFor(['sk-first-secret', undefined]);
    expect(redactorFor(['sk-first-secret', undefined])).toBe(first);
    const second = redactorFor(['sk-second-secret', undefined]);
    expect(second).not.toBe(first);
    expect(second.text('sk-first-secret sk-second-secret')).toBe(`sk-first-secret ${REDACTED}`);
  });
});
