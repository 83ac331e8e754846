import { describe, expect, it } from 'vitest';
import { createSessionCache } from './session-cache.ts';

describe('createSessionCache', () => {
  it('keeps at most max sessions, dropping the least recently used', () => {
    const cache = createSessionCache<number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.get('a')).toBe(1); // a is now more recent than b
    cache.set('c', 3);
    expect(cache.size).toBe(2);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
    cache.delete('a');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.size).toBe(1);
  });
});
