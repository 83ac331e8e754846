import { describe, expect, it } from 'vitest';
import { readCapped } from './read-capped.ts';

/** An endless source, like /dev/zero, that counts what was pulled from it. */
function endless(chunkBytes: number) {
  const state = { pulled: 0, closed: false };
  const source = {
    async *[Symbol.asyncIterator]() {
      try {
        for (;;) {
          state.pulled += chunkBytes;
          yield new Uint8Array(chunkBytes);
        }
      } finally {
        state.closed = true;
      }
    },
  };
  return { source, state };
}

describe('readCapped', () => {
  it('stops an endless source one chunk past the limit and closes it', async () => {
    const { source, state } = endless(65_536);
    const read = await readCapped(source, 1_000_000);
    expect(read).toEqual({ ok: false, bytesRead: 16 * 65_536 });
    expect(state.pulled).toBe(16 * 65_536);
    expect(state.closed).toBe(true);
  });

  it('returns every byte of a source within the limit, in order', async () => {
    async function* chunks() {
      yield new Uint8Array([1, 2]);
      yield new Uint8Array([]);
      yield new Uint8Array([3]);
    }
    expect(await readCapped(chunks(), 3)).toEqual({ ok: true, bytes: new Uint8Array([1, 2, 3]) });
  });

  it('refuses a source one byte over the limit', async () => {
    async function* chunks() {
      yield new Uint8Array(4);
    }
    expect(await readCapped(chunks(), 3)).toEqual({ ok: false, bytesRead: 4 });
  });
});
