import { LoopError } from '@askloop/controller';
import { PostgresStoreError } from '@askloop/postgres';
import { describe, expect, it } from 'vitest';
import { stepErrorCode } from './worker.ts';

describe("a worker step's error code", () => {
  it("is the error's own code, or the first in its cause chain; none for an error without one", () => {
    expect(stepErrorCode(new LoopError({ code: 'LOOP_PROVIDER_NOT_FOUND', message: "agent 'launcher': no provider gated" }))).toBe('LOOP_PROVIDER_NOT_FOUND');
    const lost = new PostgresStoreError('PG_LEASE_LOST', 'lease 7 on session s is lost', { sid: 's' });
    expect(stepErrorCode(new Error('the transcript store failed', { cause: new Error('store saveTurn failed', { cause: lost }) }))).toBe('PG_LEASE_LOST');
    expect(stepErrorCode(Object.assign(new Error('socket'), { code: 'ECONNRESET' }))).toBeUndefined();
    expect(stepErrorCode(new Error('plain'))).toBeUndefined();
    expect(stepErrorCode(undefined)).toBeUndefined();
  });
});
