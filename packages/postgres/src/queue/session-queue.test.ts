import { sampleSession, sampleTurn } from '@askloop/controller/testing';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database.ts';
import { applyPostgresMigrations } from '../migrate/postgres-migrations.ts';
import { createPostgresTranscriptStore } from '../transcript/postgres-transcript-store.ts';
import { createSessionQueue, enqueueSession } from './session-queue.ts';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

async function freshPool(): Promise<pg.Pool> {
  const pools = await database.schema();
  const pool = pools();
  await applyPostgresMigrations(pool);
  return pool;
}

async function createSessions(pool: pg.Pool, sids: readonly string[]): Promise<void> {
  const store = createPostgresTranscriptStore(pool);
  for (const sid of sids) await store.createSession(sampleSession(sid));
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('session queue', () => {
  it('refuses to queue a session the transcript does not hold; queueing twice is one entry', async () => {
    const pool = await freshPool();
    await expect(enqueueSession(pool, 'ghost')).rejects.toMatchObject({ code: 'PG_SESSION_NOT_FOUND', sid: 'ghost' });
    // An id no store holds is the caller's error, named as the transcript store names it (not PG_QUERY_FAILED).
    await expect(enqueueSession(pool, 'nul\u0000id')).rejects.toMatchObject({ code: 'LOOP_ARGUMENT_INVALID', message: expect.stringMatching(/^enqueue: the session id "nul\\u0000id" must not contain control characters/) });
    await expect(createSessionQueue(pool).entry('')).rejects.toMatchObject({ code: 'LOOP_ARGUMENT_INVALID', message: 'entry: the session id "" must not be empty' });
    await createSessions(pool, ['a']);
    await enqueueSession(pool, 'a');
    await enqueueSession(pool, 'a');
    const queue = createSessionQueue(pool);
    expect(await queue.counts()).toMatchObject({ ready: 1 });
    expect(await queue.entry('a')).toEqual({ sid: 'a', state: 'ready', leases: 0, steps: 0, failures: 0, conflicts: 0, lastError: null });
    // Several at once: those queued, by id; a session never queued has no row, and no id is no query.
    await createSessions(pool, ['b', 'unqueued']);
    await enqueueSession(pool, 'b');
    const entries = await queue.entries(['a', 'b', 'unqueued']);
    expect([...entries.keys()].sort()).toEqual(['a', 'b']);
    expect(entries.get('b')).toEqual({ sid: 'b', state: 'ready', leases: 0, steps: 0, failures: 0, conflicts: 0, lastError: null });
    expect((await queue.entries([])).size).toBe(0);
    await expect(queue.entries(['a', ''])).rejects.toMatchObject({ code: 'LOOP_ARGUMENT_INVALID', message: 'entries: the session id "" must not be empty' });
  });

  it('refuses to queue a session that has ended (PG_SESSION_ENDED) and queues one resume would run again', async () => {
    const pool = await freshPool();
    const store = createPostgresTranscriptStore(pool);
    await store.createSession(sampleSession('done'));
    await store.saveTurn(sampleTurn('done', 1, { decision: { kind: 'DONE', result: 'ok' } }));
    await store.createSession(sampleSession('ceiling'));
    await store.saveTurn(sampleTurn('ceiling', 4, { decision: { kind: 'HALT', reason: 'ERR_MAX_TURNS_EXCEEDED', message: 'the turn ceiling' } }));
    await store.createSession(sampleSession('cancelled'));
    await store.saveTurn(sampleTurn('cancelled', 2, { decision: { kind: 'HALT', reason: 'ERR_CANCELLED', message: 'cancelled' } }));
    await expect(enqueueSession(pool, 'done')).rejects.toMatchObject({ code: 'PG_SESSION_ENDED', sid: 'done', message: expect.stringContaining('has ended (DONE after 1 turn)') });
    await expect(enqueueSession(pool, 'ceiling')).rejects.toMatchObject({ code: 'PG_SESSION_ENDED', message: expect.stringContaining('(HALT ERR_MAX_TURNS_EXCEEDED after 4 turns)') });
    await enqueueSession(pool, 'cancelled');
    const queue = createSessionQueue(pool);
    expect(await queue.counts()).toMatchObject({ ready: 1 });
    expect(await queue.entry('done')).toBeUndefined();
  });

  it('leases in queue order, each session to one host; concurrent hosts never get the same session', async () => {
    const pool = await freshPool();
    const sids = Array.from({ length: 12 }, (_, index) => `s${String(index).padStart(2, '0')}`);
    await createSessions(pool, sids);
    for (const sid of sids) await enqueueSession(pool, sid);
    const queue = createSessionQueue(pool);
    const first = await queue.acquire('host-a');
    expect(first?.sid).toBe('s00');
    const leases = await Promise.all(Array.from({ length: 11 }, (_, index) => queue.acquire(`host-${index}`)));
    expect(new Set(leases.map((lease) => lease?.sid)).size).toBe(11);
    expect(leases.map((lease) => lease?.sid).sort()).toEqual(sids.slice(1));
    expect(await queue.acquire('host-late')).toBeUndefined();
    // Fencing tokens only grow.
    const tokens = [first, ...leases].map((lease) => BigInt(lease?.token ?? '0'));
    expect(new Set(tokens).size).toBe(12);
  });

  it('gives an expired lease to the next host with a larger token; the old holder can no longer renew', async () => {
    const pool = await freshPool();
    await createSessions(pool, ['x']);
    await enqueueSession(pool, 'x');
    // A lease of a minute cannot run out while the test looks at it, however slow the machine; renewed for 1 ms
    // (a queue whose leaseMs is 1), it runs out at once.
    const queue = createSessionQueue(pool, { leaseMs: 60_000 });
    const old = await queue.acquire('old-host');
    expect(old).toMatchObject({ sid: 'x', owner: 'old-host' });
    expect(await queue.acquire('new-host')).toBeUndefined();
    const renewed = await queue.renew(old!);
    expect(renewed?.expiresAt.getTime()).toBeGreaterThanOrEqual(old!.expiresAt.getTime());
    expect(await createSessionQueue(pool, { leaseMs: 1 }).renew(old!)).toBeDefined();
    await pause(20);
    const taken = await queue.acquire('new-host');
    expect(taken).toMatchObject({ sid: 'x', owner: 'new-host' });
    expect(BigInt(taken!.token)).toBeGreaterThan(BigInt(old!.token));
    expect(await queue.renew(old!)).toBeUndefined();
    expect(await queue.renew(taken!)).toMatchObject({ sid: 'x', token: taken!.token });
    expect(await queue.entry('x')).toMatchObject({ state: 'leased', leases: 2 });
  });

  it('a failed step is offered again later, and parked as failed after maxFailures', async () => {
    const pool = await freshPool();
    await createSessions(pool, ['f']);
    await enqueueSession(pool, 'f');
    const queue = createSessionQueue(pool, { maxFailures: 2, retryDelayMs: 0 });
    await queue.fail((await queue.acquire('h'))!, new Error('first'));
    expect(await queue.entry('f')).toMatchObject({ state: 'ready', failures: 1, lastError: 'first' });
    await queue.fail((await queue.acquire('h'))!, new Error('second'));
    expect(await queue.entry('f')).toMatchObject({ state: 'failed', failures: 2, lastError: 'second' });
    expect(await queue.acquire('h')).toBeUndefined();
    // Queued again by hand, it starts over.
    await enqueueSession(pool, 'f');
    expect(await queue.entry('f')).toMatchObject({ state: 'ready', failures: 0, lastError: null });
  });

  it('keeps a failed step\'s message redacted (redact), before its cut to 2,000 characters', async () => {
    const pool = await freshPool();
    await createSessions(pool, ['r']);
    await enqueueSession(pool, 'r');
    const key = 'sk-queue-secret-0123456789';
    const queue = createSessionQueue(pool, { retryDelayMs: 0, redact: (text) => text.replaceAll(key, '[redacted]') });
    // The key across the cut: redacted first, so none of it is kept.
    await queue.fail((await queue.acquire('h'))!, new Error(`${'x'.repeat(1980)} ${key}`));
    const kept = (await queue.entry('r'))?.lastError ?? '';
    expect(kept).toBe(`${'x'.repeat(1980)} [redacted]`);
    await queue.retry!((await queue.acquire('h'))!, new Error(`deadlock near ${key}`));
    expect(await queue.entry('r')).toMatchObject({ lastError: 'deadlock near [redacted]' });
    expect(() => createSessionQueue(pool, { redact: 'yes' as never })).toThrow(expect.objectContaining({ code: 'LOOP_ARGUMENT_INVALID', message: 'createSessionQueue: redact must be a function (text) => text, not string' }));
  });

  it('retries a conflict at once without a failure, up to maxConflicts in a row; gives back only a lease still held', async () => {
    const pool = await freshPool();
    await createSessions(pool, ['c']);
    await enqueueSession(pool, 'c');
    const queue = createSessionQueue(pool, { maxFailures: 2, maxConflicts: 3, retryDelayMs: 600_000 });
    const retry = queue.retry!;
    const first = (await queue.acquire('h'))!;
    expect(await retry(first, new Error('deadlock detected'))).toBe('retried');
    expect(await queue.entry('c')).toMatchObject({ state: 'ready', failures: 0, conflicts: 1, lastError: 'deadlock detected' });
    // The same lease again (a stalled host's, say): no longer held, so nothing changes.
    expect(await retry(first, new Error('late'))).toBe('lost');
    expect(await queue.entry('c')).toMatchObject({ state: 'ready', conflicts: 1, lastError: 'deadlock detected' });
    // Offered again at once (ready_at now, not after retryDelayMs).
    expect(await retry((await queue.acquire('h'))!, new Error('deadlock detected'))).toBe('retried');
    expect(await queue.entry('c')).toMatchObject({ state: 'ready', failures: 0, conflicts: 2 });
    // The third in a row (maxConflicts) counts as a failure, with the failure's delay.
    expect(await retry((await queue.acquire('h'))!, new Error('deadlock detected'))).toBe('counted');
    expect(await queue.entry('c')).toMatchObject({ state: 'ready', failures: 1, conflicts: 0 });
    expect(await queue.acquire('h')).toBeUndefined();
  });

  it('refuses options that are not whole numbers in range, naming them', () => {
    const pool = {} as pg.Pool;
    expect(() => createSessionQueue(pool, { maxConflicts: 2.5 })).toThrow(expect.objectContaining({ code: 'LOOP_ARGUMENT_INVALID', message: 'createSessionQueue: maxConflicts must be a whole number of at least 1, not 2.5' }));
    expect(() => createSessionQueue(pool, { maxFailures: 0 })).toThrow(expect.objectContaining({ message: 'createSessionQueue: maxFailures must be a whole number of at least 1, not 0' }));
    expect(() => createSessionQueue(pool, { retryDelayMs: -1 })).toThrow(expect.objectContaining({ message: 'createSessionQueue: retryDelayMs must be a whole number of at least 0, not -1' }));
    expect(() => createSessionQueue(pool, { leaseMs: Number.NaN })).toThrow(expect.objectContaining({ message: 'createSessionQueue: leaseMs must be a whole number of at least 1, not NaN' }));
    expect(createSessionQueue(pool, { retryDelayMs: 0 }).leaseMs).toBe(30_000);
  });
});
