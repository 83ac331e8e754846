import { describe, expect, it } from 'vitest';
import { TOOL_ERROR_CODES, type ToolErrorCode } from './error-codes.ts';
import { ToolError, isToolError } from './tool-error.ts';

describe('ToolError', () => {
  it('keeps the codes sorted, each with a reference code and a fix', () => {
    const codes = Object.keys(TOOL_ERROR_CODES);
    expect(codes).toEqual([...codes].sort());
    for (const info of Object.values(TOOL_ERROR_CODES)) {
      expect(Number.isInteger(info.referenceCode)).toBe(true);
      expect(info.fix.length).toBeGreaterThan(10);
    }
  });

  it('uses 1003 for every policy denial (reference §2.4)', () => {
    for (const code of ['POLICY_DENIED', 'POLICY_NOT_ALLOWED', 'POLICY_TRUST_REQUIRED', 'POLICY_CAPABILITY_MISSING', 'POLICY_CALL_LIMIT', 'HTTP_HOST_DENIED'] as const) {
      expect(new ToolError(code, 'x').referenceCode).toBe(1003);
    }
  });

  it('refuses a code outside the table, naming it and what to use instead', () => {
    for (const code of ['MY_CODE', 'toString', '__proto__']) {
      expect(() => new ToolError(code as ToolErrorCode, 'x')).toThrow(new TypeError(`new ToolError("${code}", …): not a ToolError code; use one of TOOL_ERROR_CODES (e.g. TOOL_FAILED, TOOL_VALUE_INVALID), or throw a plain Error, which the host reports as TOOL_FAILED`));
    }
  });

  it('is recognised across package copies by its marker, not its class', () => {
    const foreign = Object.assign(new Error('x'), { [Symbol.for('askloop.tools.error')]: true });
    expect(isToolError(foreign)).toBe(true);
    expect(isToolError(new Error('x'))).toBe(false);
    expect(isToolError(null)).toBe(false);
  });

  it('serialises to plain JSON without empty fields', () => {
    const error = new ToolError('TOOL_ARGUMENT_INVALID', 'bad', { tool: 'tool.a.B', argument: 'x', cause: new Error('inner') });
    expect(JSON.parse(JSON.stringify(error))).toEqual({ code: 'TOOL_ARGUMENT_INVALID', referenceCode: 4, message: 'bad', tool: 'tool.a.B', argument: 'x' });
    expect((error.cause as Error).message).toBe('inner');
  });
});
