import { describe, expect, it } from 'vitest';
import { sampleSession } from '../testing/transcript-fixtures.ts';
import { countSessions } from './count-sessions.ts';
import { createMemoryTranscriptStore } from './memory-transcript-store.ts';
import type { TranscriptStore } from './transcript-store.ts';

/** A store written before countSessions existed: the memory store without it, its list calls counted. */
function storeWithoutCount(): { store: TranscriptStore; lists: () => number } {
  const inner = createMemoryTranscriptStore();
  let lists = 0;
  const { countSessions: _dropped, ...rest } = inner;
  const store: TranscriptStore = {
    ...rest,
    listSessions: (options) => {
      lists += 1;
      return inner.listSessions(options);
    },
  };
  return { store, lists: () => lists };
}

describe('countSessions (the helper)', () => {
  it("uses the store's own count when it has one, and lists nothing", async () => {
    const store = createMemoryTranscriptStore();
    await store.createSession(sampleSession('a', { status: 'done' }));
    await store.createSession(sampleSession('b'));
    let listed = 0;
    const counting: TranscriptStore = { ...store, listSessions: (options) => ((listed += 1), store.listSessions(options)) };
    expect(await countSessions(counting, { status: 'done' })).toBe(1);
    expect(await countSessions(counting)).toBe(2);
    expect(listed).toBe(0);
  });

  it('lists and counts on a store without countSessions', async () => {
    const { store, lists } = storeWithoutCount();
    await store.createSession(sampleSession('a', { status: 'done' }));
    await store.createSession(sampleSession('b'));
    expect(await countSessions(store, { status: 'done' })).toBe(1);
    expect(await countSessions(store, { search: 'B' })).toBe(1);
    expect(lists()).toBe(2);
  });

  it('refuses offset and limit on a store without countSessions too, before listing (LOOP_ARGUMENT_INVALID)', async () => {
    const { store, lists } = storeWithoutCount();
    await expect(countSessions(store, { limit: 1 } as never)).rejects.toMatchObject({ code: 'LOOP_ARGUMENT_INVALID', message: expect.stringMatching(/^countSessions: unknown option "limit"/) });
    await expect(countSessions(store, { search: 'tab\there' })).rejects.toMatchObject({ code: 'LOOP_ARGUMENT_INVALID' });
    expect(lists()).toBe(0);
  });
});
