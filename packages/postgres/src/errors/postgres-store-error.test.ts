import { readFileSync } from 'node:fs';
import { LoopError } from '@askloop/controller';
import { describe, expect, it } from 'vitest';
import { findPostgresError, isLeaseLost, isPermissionDenied, isPostgresStoreError, isTransactionConflict, POSTGRES_ERROR_CODES, PostgresStoreError } from './postgres-store-error.ts';

describe('PostgresStoreError', () => {
  it('the README lists every code with the same text', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const table = readme.slice(readme.indexOf('<!-- errors:start -->'), readme.indexOf('<!-- errors:end -->'));
    const rows = [...table.matchAll(/^\| `(PG_[A-Z_]+)` \| (.*) \|$/gm)].map((match) => [match[1], match[2]]);
    expect(rows).toEqual(Object.entries(POSTGRES_ERROR_CODES));
  });

  it('is found through the cause chains the controller and the tools wrap it in', () => {
    const lost = new PostgresStoreError('PG_LEASE_LOST', 'lease 7 on session s is lost', { sid: 's' });
    const wrapped = new Error('the transcript store failed', { cause: new Error('store saveTurn failed', { cause: lost }) });
    expect(findPostgresError(wrapped)).toBe(lost);
    expect(findPostgresError(wrapped, 'PG_QUERY_FAILED')).toBeUndefined();
    expect(isLeaseLost(wrapped)).toBe(true);
    expect(isLeaseLost(new Error('other'))).toBe(false);
    // The controller's own session lease, lost to another host: not this host's failure either.
    expect(isLeaseLost(new LoopError({ code: 'LOOP_LEASE_LOST', message: 'another host took over the lease on session s', sid: 's' }))).toBe(true);
    expect(isLeaseLost(new LoopError({ code: 'LOOP_STORE_ERROR', message: 'the store failed', sid: 's' }))).toBe(false);
    expect(isPostgresStoreError(lost)).toBe(true);
    expect(JSON.parse(JSON.stringify(lost))).toEqual({ code: 'PG_LEASE_LOST', message: 'lease 7 on session s is lost', sid: 's' });
  });

  it("tells a transaction PostgreSQL failed to break a conflict (SQLSTATE 40P01, 40001) from other failures, through the wrapping", () => {
    // The shape of pg's DatabaseError: the SQLSTATE in `code`, beside a `severity` (a real one: test/worker.test.ts).
    const serverError = (code: string) => Object.assign(new Error(`server error ${code}`), { code, severity: 'ERROR' });
    const wrapped = (cause: unknown) => new Error('the transcript store failed', { cause: new PostgresStoreError('PG_QUERY_FAILED', 'query failed', { cause }) });
    expect(isTransactionConflict(wrapped(serverError('40P01')))).toBe(true);
    expect(isTransactionConflict(wrapped(serverError('40001')))).toBe(true);
    // Other server errors (a unique violation, a lost connection) are failures, and so is a code that is not the server's.
    expect(isTransactionConflict(wrapped(serverError('23505')))).toBe(false);
    expect(isTransactionConflict(wrapped(serverError('57P01')))).toBe(false);
    expect(isTransactionConflict(wrapped(Object.assign(new Error('not from the server'), { code: '40P01' })))).toBe(false);
    expect(isTransactionConflict(new Error('other'))).toBe(false);
  });

  it("isPermissionDenied finds the server's insufficient_privilege anywhere in the cause chain, and nothing else", () => {
    const denied = Object.assign(new Error('permission denied for table askloop_queue'), { code: '42501', severity: 'ERROR' });
    expect(isPermissionDenied(new PostgresStoreError('PG_QUERY_FAILED', 'queue acquire failed', { cause: denied }))).toBe(true);
    expect(isPermissionDenied(Object.assign(new Error('x'), { code: '42501' }))).toBe(false);
    expect(isPermissionDenied(Object.assign(new Error('deadlock'), { code: '40P01', severity: 'ERROR' }))).toBe(false);
  });
});
