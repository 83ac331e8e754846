import { countCallIn, createCallCounter } from '@askloop/tools';
import { describe, expect, it } from 'vitest';
import { tallyOf } from '../decide/loop-tally.ts';
import { createMemoryTranscriptStore } from '../store/memory-transcript-store.ts';
import type { TranscriptStore } from '../store/transcript-store.ts';
import { sampleSession, sampleTurn } from '../testing/transcript-fixtures.ts';
import { countedCalls } from './counted-calls.ts';
import { counterStepped, counterUnsettled, createKeptCounter, keepCounterCurrent } from './kept-counter.ts';

/** A memory store holding session `s` with `turns` decided turns, its `listTurns` calls counted. */
async function storeWith(turns: number): Promise<{ readonly store: TranscriptStore; readonly reads: () => number }> {
  const memory = createMemoryTranscriptStore();
  await memory.createSession(sampleSession('s'));
  for (let index = 1; index <= turns; index += 1) await memory.saveTurn(sampleTurn('s', index));
  let reads = 0;
  return { store: { ...memory, listTurns: (sid) => ((reads += 1), memory.listTurns(sid)) }, reads: () => reads };
}

describe('kept counter', () => {
  it('is rebuilt from the stored turns on its first step, then reads nothing while the session is as it left it', async () => {
    const { store, reads } = await storeWith(2);
    const turns = await store.listTurns('s');
    const [first, second] = turns;
    if (first === undefined || second === undefined) throw new Error('no turns');
    const counter = createKeptCounter();
    await keepCounterCurrent(counter, store, 's', second, tallyOf(turns));
    expect(counter.total).toBe(countedCalls(turns).total);
    expect(counter.total).toBeGreaterThan(0);
    const readsAfterRebuild = reads();
    // This host's own step: the counter counted its calls as they were made.
    countCallIn(counter, 'tool.x');
    counterStepped(counter, second, tallyOf(turns));
    await keepCounterCurrent(counter, store, 's', second, tallyOf(turns));
    expect(reads()).toBe(readsAfterRebuild);
    expect(counter.total).toBe(countedCalls(turns).total + 1);
  });

  it('is rebuilt when another host decided a turn, or ran the last one again, since it counted', async () => {
    const { store, reads } = await storeWith(1);
    const [first] = await store.listTurns('s');
    if (first === undefined) throw new Error('no turn');
    const counter = createKeptCounter();
    counterStepped(counter, first, tallyOf([first]));
    const next = sampleTurn('s', 2);
    await store.saveTurn(next);
    const turns = await store.listTurns('s');
    const before = reads();
    await keepCounterCurrent(counter, store, 's', next, tallyOf(turns));
    expect(reads() - before).toBe(1);
    expect(counter.total).toBe(countedCalls(turns).total);
    const rerun = { ...next, reruns: 1 };
    await store.saveTurn(rerun);
    await keepCounterCurrent(counter, store, 's', rerun, tallyOf(turns));
    expect(reads() - before).toBe(2);
  });

  it('counts nothing, reading nothing, for a session without turns; leaves a counter it does not keep alone', async () => {
    const { store, reads } = await storeWith(0);
    const kept = createKeptCounter();
    countCallIn(kept, 'tool.stale');
    await keepCounterCurrent(kept, store, 's', undefined, tallyOf([]));
    expect(kept.total).toBe(0);
    expect(kept.perTool.size).toBe(0);
    const own = createCallCounter();
    countCallIn(own, 'tool.replayed');
    await keepCounterCurrent(own, store, 's', sampleTurn('s', 1), tallyOf([sampleTurn('s', 1)]));
    expect(own.total).toBe(1);
    expect(reads()).toBe(0);
  });

  it('is rebuilt after a step that threw: the calls its run counted may never have been stored (a rolled-back step)', async () => {
    const { store, reads } = await storeWith(1);
    const turns = await store.listTurns('s');
    const [first] = turns;
    if (first === undefined) throw new Error('no turn');
    const counter = createKeptCounter();
    await keepCounterCurrent(counter, store, 's', first, tallyOf(turns));
    // The next step's run counts a call as it makes it, then throws before its record is stored.
    countCallIn(counter, 'tool.rolled-back');
    counterUnsettled(counter);
    const before = reads();
    await keepCounterCurrent(counter, store, 's', first, tallyOf(turns));
    expect(reads() - before).toBe(1);
    expect(counter.total).toBe(countedCalls(turns).total);
  });
});
