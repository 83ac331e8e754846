/**
 * A worker whose database is away asks again after a second, then twice as
 * long after each further failure in a row, at most 30 s, and starts over
 * once a request succeeds. Regression: it asked (and its command printed a
 * line) every second for as long as the outage lasted.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SessionQueue } from '../queue/session-queue.ts';
import type { LeaseBoundStores } from './lease-bound-stores.ts';
import { runWorker } from './run-worker.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('runWorker while the database is away', () => {
  it('backs off 1, 2, 4 … 30 s, and starts over after a request succeeds', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const outcomes = ['down', 'down', 'down', 'down', 'down', 'down', 'down', 'up', 'down', 'down'];
    const queue = {
      acquire: async () => {
        const next = outcomes.shift();
        if (next === undefined) stop.abort();
        if (next === 'down') throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        return undefined;
      },
    } as unknown as SessionQueue;
    const waits: { failures: number; waitMs: number }[] = [];
    const done = runWorker({ loop: { step: async () => { throw new Error('no step'); } }, stores: {} as LeaseBoundStores, queue, signal: stop.signal, idleMs: 10, onError: (_error, retry) => void waits.push(retry) });
    for (let round = 0; round < 40 && !stop.signal.aborted; round += 1) await vi.advanceTimersByTimeAsync(30_000);
    await done;
    expect(waits).toEqual([
      { failures: 1, waitMs: 1000 },
      { failures: 2, waitMs: 2000 },
      { failures: 3, waitMs: 4000 },
      { failures: 4, waitMs: 8000 },
      { failures: 5, waitMs: 16_000 },
      { failures: 6, waitMs: 30_000 },
      { failures: 7, waitMs: 30_000 },
      { failures: 1, waitMs: 1000 },
      { failures: 2, waitMs: 2000 },
    ]);
  });
});
