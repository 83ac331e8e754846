/**
 * A retry's wait longer than one Node timer holds (2^31 − 1 ms) is waited,
 * not cut to 1 ms (walkthrough: a huge retry-after under a huge
 * maxRetryAfterMs retried at once, with a TimeoutOverflowWarning).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { abortableSleep } from './abortable-sleep.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('abortableSleep', () => {
  it('waits a delay past 2^31 - 1 ms in full, and an abort still ends it at once', async () => {
    vi.useFakeTimers();
    let done = false;
    const long = 2 ** 31 + 5_000;
    void abortableSleep(long, undefined).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(2 ** 31 - 1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(2);
    expect(done).toBe(true);

    const controller = new AbortController();
    const aborted = abortableSleep(long, controller.signal);
    await vi.advanceTimersByTimeAsync(2 ** 31);
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
  });
});
