/**
 * A turn's `interrupted` note: one entry per run of the turn that stopped
 * mid-turn with nothing of its end saved, however far the next run gets
 * before it stops too, kept to the latest `MAX_INTERRUPTED_KEPT` with a count
 * of the older ones; and a session with such notes still replays as it ran.
 * Each host here dies while its model is asked: from then on every call of
 * its store fails, so nothing of its run after that is saved.
 */
import { createSandboxPool } from '@askloop/interpreter';
import type { ScriptedReply } from '@askloop/providers';
import { afterAll, describe, expect, it } from 'vitest';
import { createAskLoop } from '../src/create-ask-loop.ts';
import { MAX_INTERRUPTED_KEPT } from '../src/loop/turn-record.ts';
import { createMemoryTranscriptStore } from '../src/store/memory-transcript-store.ts';
import type { TranscriptStore } from '../src/store/transcript-store.ts';
import { envelope, testPlugin } from './test-plugin.ts';

const pool = createSandboxPool({ workers: 1 });
afterAll(() => pool.close());
const agent = { name: 'worker', model: 'scripted:m' };
const done = envelope(['command', '  emit "<<<LOOP:DONE>>> finished"', 'endcommand'].join('\n'));

/** A host on `store` whose model, when `dies`, kills the host while it is asked (its store fails from then on). */
function host(store: TranscriptStore, dies: boolean) {
  let dead = false;
  const alive = <A extends unknown[], R>(fn: (...args: A) => Promise<R>) => async (...args: A): Promise<R> => {
    if (dead) throw new Error('the host is dead');
    return fn.apply(store, args);
  };
  const hostStore: TranscriptStore = {
    createSession: alive(store.createSession),
    getSession: alive(store.getSession),
    updateSession: alive(store.updateSession),
    listSessions: alive(store.listSessions),
    saveTurn: alive(store.saveTurn),
    listTurns: alive(store.listTurns),
    lastTurn: alive(store.lastTurn),
    close: async () => {},
  };
  const model = (): ScriptedReply => {
    if (dies) dead = true;
    return done;
  };
  return createAskLoop({ plugins: [testPlugin({ m: model })], store: hostStore, pool });
}

/** Starts session `s` on a host that dies while its model is asked, then `again` more such hosts continue it; then one finishes it. */
async function interruptedTimes(again: number) {
  const store = createMemoryTranscriptStore();
  const first = host(store, true);
  await expect(first.run({ agent, task: 'go', sid: 's' })).rejects.toThrow();
  await first.close();
  for (let index = 0; index < again; index += 1) {
    const next = host(store, true);
    await expect(next.resume('s')).rejects.toThrow();
    await next.close();
  }
  const last = host(store, false);
  expect(await last.resume('s')).toMatchObject({ status: 'DONE', result: 'finished' });
  return { store, last };
}

describe('interrupted runs of a turn', () => {
  it('notes every run that stopped, also one that stopped while it asked the model again', async () => {
    const { store, last } = await interruptedTimes(1);
    const [turn] = await store.listTurns('s');
    expect(turn?.interrupted).toEqual([
      { phase: 'asking', at: expect.any(String) },
      { phase: 'asking', at: expect.any(String) },
    ]);
    expect(turn?.interruptedDropped).toBeUndefined();
    // A replay runs the turn once, as its last run went: the notes are not compared.
    expect(await last.replay('s')).toMatchObject({ matched: true, divergence: null });
    await last.close();
  });

  it(`keeps the latest ${MAX_INTERRUPTED_KEPT} in a record continued more often, and counts the older ones`, async () => {
    const runs = MAX_INTERRUPTED_KEPT + 5;
    const { store, last } = await interruptedTimes(runs - 1);
    const [turn] = await store.listTurns('s');
    expect(turn?.interrupted).toHaveLength(MAX_INTERRUPTED_KEPT);
    expect(turn?.interruptedDropped).toBe(5);
    expect(await last.replay('s')).toMatchObject({ matched: true });
    await last.close();
  });
});
