import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { followSignal } from './follow-signal.ts';

describe('followSignal', () => {
  it('aborts the follower with the source\'s reason, and leaves no listener once unfollowed', () => {
    const source = new AbortController();
    const follower = new AbortController();
    const unfollow = followSignal(source.signal, follower);
    expect(getEventListeners(source.signal, 'abort')).toHaveLength(1);
    const reason = new Error('stop');
    source.abort(reason);
    expect([follower.signal.aborted, follower.signal.reason]).toEqual([true, reason]);

    const quiet = new AbortController();
    const other = new AbortController();
    const stop = followSignal(quiet.signal, other);
    stop();
    expect(getEventListeners(quiet.signal, 'abort')).toHaveLength(0);
    quiet.abort();
    expect(other.signal.aborted).toBe(false);
    unfollow();
  });

  it('aborts at once when the source already has, and does nothing without a source', () => {
    const follower = new AbortController();
    followSignal(AbortSignal.abort('gone'), follower);
    expect(follower.signal.reason).toBe('gone');
    const untouched = new AbortController();
    followSignal(undefined, untouched)();
    expect(untouched.signal.aborted).toBe(false);
  });
});
