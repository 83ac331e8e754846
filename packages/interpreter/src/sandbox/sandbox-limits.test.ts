import { describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_LIMITS, resolveSandboxLimits } from './sandbox-limits.ts';

describe('resolveSandboxLimits', () => {
  it('fills unset limits from the base, ignoring undefined overrides', () => {
    expect(resolveSandboxLimits({ wallMs: 100, memoryMb: undefined })).toEqual({ ...DEFAULT_SANDBOX_LIMITS, wallMs: 100 });
    expect(resolveSandboxLimits({ maxToolCalls: 0 }, { ...DEFAULT_SANDBOX_LIMITS, memoryMb: 32 })).toMatchObject({ maxToolCalls: 0, memoryMb: 32 });
  });

  it('refuses limits out of range with SANDBOX_INVALID_REQUEST', () => {
    for (const limits of [{ memoryMb: 4 }, { wallMs: 0 }, { maxOutputBytes: -1 }, { maxToolCalls: Number.NaN }, { wallMs: Number.POSITIVE_INFINITY }]) {
      expect(() => resolveSandboxLimits(limits)).toThrow(expect.objectContaining({ code: 'SANDBOX_INVALID_REQUEST' }));
    }
  });

  it('refuses a limit that does not exist instead of ignoring it', () => {
    expect(() => resolveSandboxLimits({ walMs: 100 } as never)).toThrow(expect.objectContaining({ code: 'SANDBOX_INVALID_REQUEST', message: expect.stringContaining('there is no sandbox limit walMs') }));
  });
});
