/**
 * The fenced-lease conformance table: what a transcript store several hosts
 * share must do once a host stalled past its session lease and another host
 * took the session over. The stalled host's writes of the session fail with
 * `LOOP_LEASE_LOST` and leave the other host's records as they were; its
 * renewal fails instead of taking the lease back, even after the other host
 * gave it up; code that outlived its step is refused too. Plain
 * `node:assert`, like the transcript table:
 *
 * ```ts
 * for (const testCase of leaseFencingCases) it(testCase.name, () => testCase.run(async () => [hostA(), hostB()]));
 * ```
 *
 * `openHosts` returns two views of one new, empty store, as two hosts see
 * it (two store objects on one file or database, or one store object shared
 * by two holders); every case closes them.
 */
import assert from 'node:assert/strict';
import { runUnderLease } from '../session/lease-scope.ts';
import type { TranscriptStore } from '../store/transcript-store.ts';
import { sampleSession, sampleTurn } from './transcript-fixtures.ts';

/** Host A's and host B's view of one new, empty store (the same object twice when one store serves both). */
export type OpenTwoHosts = () => Promise<readonly [TranscriptStore, TranscriptStore]> | readonly [TranscriptStore, TranscriptStore];

/** One case of the table. */
export interface LeaseFencingCase {
  readonly name: string;
  /** Resolves when the store fences as it should; rejects with an `AssertionError` (or the store's error) when not. */
  run(openHosts: OpenTwoHosts): Promise<void>;
}

const lost = (sid: string) => (error: unknown): boolean => {
  assert.equal((error as { code?: unknown }).code, 'LOOP_LEASE_LOST');
  assert.equal((error as { sid?: unknown }).sid, sid);
  return true;
};

const acquire = (store: TranscriptStore, holder: string, ttlMs = 60_000): Promise<boolean> => {
  assert.ok(store.acquireLease !== undefined && store.releaseLease !== undefined, 'a store several hosts share offers acquireLease/releaseLease');
  return store.acquireLease.call(store, 's', holder, ttlMs);
};
const release = (store: TranscriptStore, holder: string): Promise<void> => store.releaseLease?.call(store, 's', holder) ?? Promise.resolve();
const outputs = async (store: TranscriptStore): Promise<(string | undefined)[]> => (await store.listTurns('s')).map((turn) => turn.output);

/** Runs `body` on the two hosts and closes them whatever happens. */
function define(name: string, body: (a: TranscriptStore, b: TranscriptStore) => Promise<void>): LeaseFencingCase {
  return {
    name,
    async run(openHosts) {
      const [a, b] = await openHosts();
      try {
        await body(a, b);
      } finally {
        await a.close();
        if (b !== a) await b.close();
      }
    },
  };
}

/** Every case. */
export const leaseFencingCases: readonly LeaseFencingCase[] = [
  define("refuses the writes of a holder whose lease was taken over, keeps the new holder's, and never gives the lease back silently", async (a, b) => {
    await a.createSession(sampleSession('s'));
    await a.createSession(sampleSession('child'));

    // Host A holds the lease and writes under it.
    assert.equal(await acquire(a, 'host-a', 0), true);
    await runUnderLease('s', 'host-a', () => a.saveTurn(sampleTurn('s', 1, { output: 'a1\n' })));
    // A's lease (0 ms) lapses at once, as a stalled host's does; host B takes the session over and writes turn 2.
    assert.equal(await acquire(b, 'host-b'), true);
    await runUnderLease('s', 'host-b', () => b.saveTurn(sampleTurn('s', 2, { output: 'b2\n' }), sampleSession('s', { turns: 2 })));

    // A wakes and goes on with its step: every write of the session is refused, nothing of it is kept.
    await assert.rejects(runUnderLease('s', 'host-a', () => a.saveTurn(sampleTurn('s', 2, { output: 'a2\n' }), sampleSession('s', { turns: 9 }))), lost('s'));
    await assert.rejects(runUnderLease('s', 'host-a', () => a.updateSession(sampleSession('s', { turns: 9 }))), lost('s'));
    assert.deepEqual(await outputs(b), ['a1\n', 'b2\n']);
    assert.equal((await b.getSession('s'))?.turns, 2);
    // A write of another session from inside A's step (an `ask` child's) is not under the lease.
    await runUnderLease('s', 'host-a', () => a.saveTurn(sampleTurn('child', 1)));
    assert.equal((await a.listTurns('child')).length, 1);

    // A's renewal fails, and keeps failing after B gave the lease up: A never takes it back in the middle of its step.
    assert.equal(await acquire(a, 'host-a'), false);
    await release(b, 'host-b');
    assert.equal(await acquire(a, 'host-a'), false);
    await assert.rejects(runUnderLease('s', 'host-a', () => a.saveTurn(sampleTurn('s', 3))), lost('s'));

    // A's step ends (it gives the lease up); its next step takes the lease afresh and writes again.
    await release(a, 'host-a');
    assert.equal(await acquire(a, 'host-a'), true);
    await runUnderLease('s', 'host-a', () => a.saveTurn(sampleTurn('s', 3, { output: 'a3\n' })));
    assert.deepEqual(await outputs(b), ['a1\n', 'b2\n', 'a3\n']);
    // B, not holding it now, is refused, and outside a step writes are not fenced at all.
    assert.equal(await acquire(b, 'host-b'), false);
    await b.updateSession(sampleSession('s', { turns: 3 }));
    assert.equal((await a.getSession('s'))?.turns, 3);
    // Code that outlived A's step (a timer it started) is refused too, once the step has ended and given the lease up.
    let late!: Promise<void>;
    await runUnderLease('s', 'host-a', async () => {
      await a.updateSession(sampleSession('s', { turns: 3 }));
      late = new Promise<void>((resolve, reject) => setTimeout(() => a.saveTurn(sampleTurn('s', 3, { output: 'late\n' })).then(resolve, reject), 20));
    });
    await release(a, 'host-a');
    await assert.rejects(late, lost('s'));
    assert.deepEqual(await outputs(b), ['a1\n', 'b2\n', 'a3\n']);
  }),
  define('lets a holder whose lease lapsed write on while nobody took it over, and renew it', async (a) => {
    await a.createSession(sampleSession('s'));
    assert.equal(await acquire(a, 'host-a', 0), true);
    await runUnderLease('s', 'host-a', () => a.saveTurn(sampleTurn('s', 1)));
    assert.equal(await acquire(a, 'host-a'), true);
    await runUnderLease('s', 'host-a', () => a.saveTurn(sampleTurn('s', 2)));
    assert.equal((await a.listTurns('s')).length, 2);
  }),
];
