import { describe, expect, it } from 'vitest';
import { sampleSession, sampleTurn } from '../testing/transcript-fixtures.ts';
import { createMemoryTranscriptStore } from './memory-transcript-store.ts';
import type { TranscriptStore } from './transcript-store.ts';
import { listTurnRange } from './turn-range.ts';

/** A store written before listTurnRange existed: the memory store without it, its full reads counted. */
async function storeWithoutRange(): Promise<{ store: TranscriptStore; lists: () => number }> {
  const inner = createMemoryTranscriptStore();
  await inner.createSession(sampleSession('s'));
  for (let index = 1; index <= 5; index++) await inner.saveTurn(sampleTurn('s', index));
  let lists = 0;
  const { listTurnRange: _dropped, ...rest } = inner;
  return { store: { ...rest, listTurns: (sid) => ((lists += 1), inner.listTurns(sid)) }, lists: () => lists };
}

describe('listTurnRange (the helper)', () => {
  it("uses the store's own ranged read when it has one, and lists nothing", async () => {
    const { store: plain } = await storeWithoutRange();
    const inner = createMemoryTranscriptStore();
    await inner.createSession(sampleSession('s'));
    for (let index = 1; index <= 5; index++) await inner.saveTurn(sampleTurn('s', index));
    let lists = 0;
    const counting: TranscriptStore = { ...inner, listTurns: (sid) => ((lists += 1), inner.listTurns(sid)) };
    expect((await listTurnRange(counting, 's', { last: 2 })).map((turn) => turn.turnIndex)).toEqual([4, 5]);
    expect(lists).toBe(0);
    expect(plain.listTurnRange).toBeUndefined();
  });

  it('lists every turn and takes the range from a store without one, as a store that has one would', async () => {
    const { store, lists } = await storeWithoutRange();
    expect((await listTurnRange(store, 's', { to: 4, last: 2 })).map((turn) => turn.turnIndex)).toEqual([3, 4]);
    expect((await listTurnRange(store, 's', { from: 2, to: 3 })).map((turn) => turn.turnIndex)).toEqual([2, 3]);
    expect(lists()).toBe(2);
  });

  it('refuses a bad range before reading, whichever way it reads', async () => {
    const { store, lists } = await storeWithoutRange();
    await expect(listTurnRange(store, 's', { form: 1 } as never)).rejects.toMatchObject({ code: 'LOOP_ARGUMENT_INVALID', message: 'listTurnRange: unknown option "form"; the options are from, to, last' });
    await expect(listTurnRange(store, '', {})).rejects.toMatchObject({ code: 'LOOP_ARGUMENT_INVALID', message: expect.stringMatching(/^listTurnRange: the session id "" must not be empty/) });
    expect(lists()).toBe(0);
  });
});
