import { describe, expect, it } from 'vitest';
import { quotaError, SANDBOX_ERROR_CODES, SandboxError } from './sandbox-error.ts';

describe('SandboxError', () => {
  it('carries a stable code, the limit it names, and plain data', () => {
    const error = quotaError('SANDBOX_TIMEOUT', { name: 'wallMs', value: 250 }, 'the run did not finish');
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toBe('the run did not finish (limit wallMs = 250)');
    expect(JSON.parse(JSON.stringify(error))).toEqual({ code: 'SANDBOX_TIMEOUT', message: 'the run did not finish (limit wallMs = 250)', limit: { name: 'wallMs', value: 250 } });
    expect(new SandboxError('SANDBOX_INTERNAL', 'x').toJSON()).toEqual({ code: 'SANDBOX_INTERNAL', message: 'x' });
  });

  it('is recognised across copies of the package by its registry marker', () => {
    const lookalike = Object.assign(new Error('from another copy'), { [Symbol.for('askloop.interpreter.sandbox-error')]: true, code: 'SANDBOX_MEMORY' });
    expect(SandboxError.isInstance(lookalike)).toBe(true);
    expect(SandboxError.isInstance(new Error('plain'))).toBe(false);
    expect(SandboxError.isInstance(null)).toBe(false);
  });

  it('lists its codes sorted and unique', () => {
    expect([...SANDBOX_ERROR_CODES]).toEqual([...new Set(SANDBOX_ERROR_CODES)].sort());
  });
});
