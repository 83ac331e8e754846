/**
 * The transcript store conformance table: plain cases `{ name, run(makeStore) }`
 * using only `node:assert`, so any store package (memory, SQLite, a future
 * PostgreSQL one) runs the same table with its own test runner:
 *
 * ```ts
 * for (const testCase of transcriptStoreCases) it(testCase.name, () => testCase.run(() => createMyStore()));
 * ```
 *
 * `makeStore` must return a new, empty store each call; every case closes
 * the stores it made.
 */
import assert from 'node:assert/strict';
import type { JsonValue } from '@askloop/interpreter';
import { countSessions } from '../store/count-sessions.ts';
import { listTurnRange, type TurnRange } from '../store/turn-range.ts';
import type { TurnRecord } from '../loop/turn-record.ts';
import type { TranscriptStore } from '../store/transcript-store.ts';
import { sampleRerunTurn, sampleSession, sampleTally, sampleTurn, sampleUnfinishedTurn } from './transcript-fixtures.ts';

/** Makes a new, empty store. */
export type MakeTranscriptStore = () => TranscriptStore | Promise<TranscriptStore>;

/** One case of the table. */
export interface TranscriptStoreCase {
  readonly name: string;
  /** Resolves when the store behaves; rejects with an `AssertionError` (or the store's error) when not. */
  run(makeStore: MakeTranscriptStore): Promise<void>;
}

/** Runs `body` on a new store and closes it whatever happens. */
async function withStore(makeStore: MakeTranscriptStore, body: (store: TranscriptStore) => Promise<void>): Promise<void> {
  const store = await makeStore();
  try {
    await body(store);
  } finally {
    await store.close();
  }
}

const define = (name: string, body: (store: TranscriptStore) => Promise<void>): TranscriptStoreCase => ({ name, run: (makeStore) => withStore(makeStore, body) });

const codeOf = (code: string) => (error: unknown): boolean => {
  assert.equal((error as { code?: unknown }).code, code);
  return true;
};

/** Every case. */
export const transcriptStoreCases: readonly TranscriptStoreCase[] = [
  define('createSession then getSession returns the same record', async (store) => {
    const session = sampleSession('s-1', { parentSid: 'parent-0', lastDecision: { kind: 'PAUSE', reason: 'AWAITING_APPROVAL', message: 'approve the deploy' } });
    await store.createSession(session);
    assert.deepEqual(await store.getSession('s-1'), session);
  }),
  define('getSession of an unknown sid is undefined', async (store) => {
    await store.createSession(sampleSession('known'));
    assert.equal(await store.getSession('unknown'), undefined);
  }),
  define('createSession refuses a sid that exists (LOOP_STORE_ERROR)', async (store) => {
    await store.createSession(sampleSession('dup'));
    await assert.rejects(store.createSession(sampleSession('dup', { agent: 'other' })), codeOf('LOOP_STORE_ERROR'));
    assert.equal((await store.getSession('dup'))?.agent, 'worker');
  }),
  define('updateSession replaces the record; an unknown sid is LOOP_SESSION_NOT_FOUND', async (store) => {
    await store.createSession(sampleSession('u'));
    const updated = sampleSession('u', { status: 'done', turns: 3, updatedAt: '2026-01-01T00:05:00.000Z', lastDecision: { kind: 'DONE', result: 'fin' } });
    await store.updateSession(updated);
    assert.deepEqual(await store.getSession('u'), updated);
    await store.updateSession(sampleSession('u', { status: 'halted', turns: 4, lastDecision: { kind: 'HALT', reason: 'ERR_NO_PROGRESS', message: 'same digest 3 times' } }));
    assert.deepEqual((await store.getSession('u'))?.lastDecision, { kind: 'HALT', reason: 'ERR_NO_PROGRESS', message: 'same digest 3 times' });
    await assert.rejects(store.updateSession(sampleSession('missing')), codeOf('LOOP_SESSION_NOT_FOUND'));
    assert.equal(await store.getSession('missing'), undefined);
  }),
  define('listSessions is newest first, with status and limit filters', async (store) => {
    await store.createSession(sampleSession('old', { createdAt: '2026-01-01T00:00:01.000Z', status: 'done' }));
    await store.createSession(sampleSession('new', { createdAt: '2026-01-01T00:00:03.000Z' }));
    await store.createSession(sampleSession('mid', { createdAt: '2026-01-01T00:00:02.000Z', status: 'done' }));
    const sids = (sessions: readonly { sid: string }[]) => sessions.map((session) => session.sid);
    assert.deepEqual(sids(await store.listSessions()), ['new', 'mid', 'old']);
    assert.deepEqual(sids(await store.listSessions({ limit: 2 })), ['new', 'mid']);
    assert.deepEqual(sids(await store.listSessions({ status: 'done' })), ['mid', 'old']);
    assert.deepEqual(sids(await store.listSessions({ status: 'done', limit: 1 })), ['mid']);
    assert.deepEqual(sids(await store.listSessions({ status: 'paused' })), []);
    assert.deepEqual((await store.listSessions({ limit: 1 }))[0], sampleSession('new', { createdAt: '2026-01-01T00:00:03.000Z' }));
  }),
  define('a status or creation time changed by updateSession or saveTurn moves the session in the filtered, ordered listings', async (store) => {
    await store.createSession(sampleSession('a', { createdAt: '2026-01-01T00:00:01.000Z' }));
    await store.createSession(sampleSession('b', { createdAt: '2026-01-01T00:00:02.000Z' }));
    const sids = (sessions: readonly { sid: string }[]) => sessions.map((session) => session.sid);
    await store.updateSession(sampleSession('a', { createdAt: '2026-01-01T00:00:03.000Z', status: 'paused' }));
    assert.deepEqual(sids(await store.listSessions()), ['a', 'b']);
    assert.deepEqual(sids(await store.listSessions({ status: 'paused' })), ['a']);
    assert.deepEqual(sids(await store.listSessions({ status: 'running' })), ['b']);
    await store.saveTurn(sampleTurn('b', 1), sampleSession('b', { createdAt: '2026-01-01T00:00:02.000Z', status: 'done', turns: 1 }));
    assert.deepEqual(sids(await store.listSessions({ status: 'done' })), ['b']);
    assert.deepEqual(sids(await store.listSessions({ status: 'running' })), []);
    // Unchanged indexed fields stay as they were when only the rest changes.
    await store.updateSession(sampleSession('a', { createdAt: '2026-01-01T00:00:03.000Z', status: 'paused', turns: 2 }));
    assert.deepEqual(sids(await store.listSessions({ status: 'paused' })), ['a']);
    assert.equal((await store.getSession('a'))?.turns, 2);
  }),
  define('listSessions puts the later of two sessions created in the same millisecond first', async (store) => {
    await store.createSession(sampleSession('first'));
    await store.createSession(sampleSession('second'));
    assert.deepEqual((await store.listSessions()).map((session) => session.sid), ['second', 'first']);
  }),
  define('listSessions of an empty store is empty', async (store) => {
    assert.deepEqual(await store.listSessions(), []);
    assert.deepEqual(await store.listSessions({ status: 'running', limit: 5 }), []);
  }),
  define('listSessions takes a limit from 0 (no session) to the largest safe integer', async (store) => {
    for (const sid of ['a', 'b', 'c']) await store.createSession(sampleSession(sid));
    assert.deepEqual(await store.listSessions({ limit: 0 }), []);
    assert.deepEqual(await store.listSessions({ status: 'running', limit: 0 }), []);
    assert.deepEqual((await store.listSessions({ limit: Number.MAX_SAFE_INTEGER })).map((session) => session.sid), ['c', 'b', 'a']);
    assert.deepEqual((await store.listSessions({ limit: 3 })).map((session) => session.sid), ['c', 'b', 'a']);
  }),
  define('listSessions refuses a negative, fractional, NaN, infinite, unsafe or non-number limit (LOOP_ARGUMENT_INVALID)', async (store) => {
    for (const sid of ['a', 'b', 'c']) await store.createSession(sampleSession(sid));
    for (const limit of [-1, -3, 1.5, 0.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 1, 2 ** 64, '2' as unknown as number, null as unknown as number]) {
      await assert.rejects(store.listSessions({ limit }), (error: unknown) => {
        codeOf('LOOP_ARGUMENT_INVALID')(error);
        assert.match((error as Error).message, /^listSessions: limit must be a whole number from 0 to 9007199254740991/);
        return true;
      }, `limit ${String(limit)}`);
    }
  }),
  define('listSessions pages with offset and limit, newest first, after the other filters', async (store) => {
    for (let index = 1; index <= 5; index += 1) {
      await store.createSession(sampleSession(`s${index}`, { createdAt: `2026-01-01T00:00:0${index}.000Z`, status: index % 2 === 0 ? 'done' : 'running' }));
    }
    const sids = (sessions: readonly { sid: string }[]) => sessions.map((session) => session.sid);
    assert.deepEqual(sids(await store.listSessions({ offset: 1, limit: 2 })), ['s4', 's3']);
    assert.deepEqual(sids(await store.listSessions({ offset: 3 })), ['s2', 's1']);
    assert.deepEqual(sids(await store.listSessions({ offset: 0, limit: 1 })), ['s5']);
    assert.deepEqual(sids(await store.listSessions({ offset: 5 })), []);
    assert.deepEqual(sids(await store.listSessions({ offset: Number.MAX_SAFE_INTEGER, limit: 3 })), []);
    assert.deepEqual(sids(await store.listSessions({ status: 'running', offset: 1 })), ['s3', 's1']);
    assert.deepEqual(sids(await store.listSessions({ status: 'done', offset: 1, limit: 5 })), ['s2']);
  }),
  define('listSessions filters by parent session and by the start of the id (case as given)', async (store) => {
    await store.createSession(sampleSession('abc-1', { createdAt: '2026-01-01T00:00:01.000Z', parentSid: 'root' }));
    await store.createSession(sampleSession('abd-2', { createdAt: '2026-01-01T00:00:02.000Z' }));
    await store.createSession(sampleSession('ABC-3', { createdAt: '2026-01-01T00:00:03.000Z', parentSid: 'root' }));
    await store.createSession(sampleSession('日本-🚀-4', { createdAt: '2026-01-01T00:00:04.000Z', parentSid: 'abc-1' }));
    const sids = (sessions: readonly { sid: string }[]) => sessions.map((session) => session.sid);
    assert.deepEqual(sids(await store.listSessions({ parentSid: 'root' })), ['ABC-3', 'abc-1']);
    assert.deepEqual(sids(await store.listSessions({ parentSid: 'abc-1' })), ['日本-🚀-4']);
    assert.deepEqual(sids(await store.listSessions({ parentSid: 'abc' })), []);
    assert.deepEqual(sids(await store.listSessions({ sidPrefix: 'ab' })), ['abd-2', 'abc-1']);
    assert.deepEqual(sids(await store.listSessions({ sidPrefix: 'abc' })), ['abc-1']);
    assert.deepEqual(sids(await store.listSessions({ sidPrefix: 'ABC' })), ['ABC-3']);
    assert.deepEqual(sids(await store.listSessions({ sidPrefix: 'abc-1' })), ['abc-1']);
    assert.deepEqual(sids(await store.listSessions({ sidPrefix: 'abc-1x' })), []);
    // Characters past the Basic Multilingual Plane count once, in every store.
    assert.deepEqual(sids(await store.listSessions({ sidPrefix: '日本-🚀' })), ['日本-🚀-4']);
    assert.deepEqual(sids(await store.listSessions({ sidPrefix: '日本-🚀-4' })), ['日本-🚀-4']);
    assert.deepEqual(sids(await store.listSessions({ parentSid: 'root', sidPrefix: 'ab', limit: 5 })), ['abc-1']);
  }),
  define('listSessions searches the id, the agent and the task, ASCII letters in either case and every other character as itself', async (store) => {
    await store.createSession(sampleSession('alpha-1', { createdAt: '2026-01-01T00:00:01.000Z', userdata: { subject: 'Deploy the Site' } }));
    await store.createSession(sampleSession('beta-2', { createdAt: '2026-01-01T00:00:02.000Z', agent: 'Reviewer', userdata: { subject: 'écrire un résumé' }, status: 'done' }));
    await store.createSession(sampleSession('gamma-3', { createdAt: '2026-01-01T00:00:03.000Z', userdata: { subject: 42, fields: { note: 'Deploy' } } }));
    await store.createSession(sampleSession('delta-4', { createdAt: '2026-01-01T00:00:04.000Z', userdata: ['Deploy'] }));
    await store.createSession(sampleSession('eps-5', { createdAt: '2026-01-01T00:00:05.000Z', userdata: { subject: '100% done_now, "quoted" \\ back' } }));
    // A task may hold U+0000 (USERDATA is any JSON); it must not break the search, in any store.
    await store.createSession(sampleSession('zeta-6', { createdAt: '2026-01-01T00:00:06.000Z', userdata: { subject: 'before \u0000 after' } }));
    const sids = (sessions: readonly { sid: string }[]) => sessions.map((session) => session.sid);
    const search = async (text: string, more: object = {}) => sids(await store.listSessions({ search: text, ...more }));
    assert.deepEqual(await search('deploy'), ['alpha-1']);
    assert.deepEqual(await search('DEPLOY THE'), ['alpha-1']);
    assert.deepEqual(await search('ALPHA'), ['alpha-1']);
    assert.deepEqual(await search('review'), ['beta-2']);
    assert.deepEqual(await search('worker'), ['zeta-6', 'eps-5', 'delta-4', 'gamma-3', 'alpha-1']);
    assert.deepEqual(await search('after'), ['zeta-6']);
    assert.deepEqual(await search('before '), ['zeta-6']);
    assert.deepEqual(await search('résumé'), ['beta-2']);
    assert.deepEqual(await search('ÉCRIRE'), []);
    assert.deepEqual(await search('42'), []);
    assert.deepEqual(await search('%'), ['eps-5']);
    assert.deepEqual(await search('_now'), ['eps-5']);
    assert.deepEqual(await search('"quoted" \\ b'), ['eps-5']);
    assert.deepEqual(await search('a-'), ['zeta-6', 'delta-4', 'gamma-3', 'beta-2', 'alpha-1']);
    assert.deepEqual(await search('a-', { status: 'running', offset: 2, limit: 1 }), ['gamma-3']);
    assert.deepEqual(await search(''), ['zeta-6', 'eps-5', 'delta-4', 'gamma-3', 'beta-2', 'alpha-1']);
    assert.deepEqual(await search('nothing like it'), []);
  }),
  define('listSessions searches tasks with U+0000, lone surrogates, escape-like text and deep USERDATA alike (U+0000 and lone surrogates read as U+FFFD)', async (store) => {
    let deep: { [key: string]: JsonValue } = { end: true };
    for (let level = 0; level < 1100; level += 1) deep = { next: deep };
    await store.createSession(sampleSession('nul-1', { createdAt: '2026-01-01T00:00:01.000Z', userdata: { subject: 'before \u0000 after' } }));
    // A lone surrogate elsewhere in the record too: a store must still read the rest.
    await store.createSession(sampleSession('lone-2', { createdAt: '2026-01-01T00:00:02.000Z', userdata: { subject: 'broken \ud800 pair' }, lastDecision: { kind: 'HALT', reason: 'ERR_NO_PROGRESS', message: 'x \udc00 y' } }));
    await store.createSession(sampleSession('text-3', { createdAt: '2026-01-01T00:00:03.000Z', userdata: { subject: 'C:\\u0000dir and \\\u0000 too' } }));
    await store.createSession(sampleSession('deep-4', { createdAt: '2026-01-01T00:00:04.000Z', userdata: { subject: 'deep one', fields: { deep } } }));
    // Only A–Z fold: a database locale that folds É too must not show through.
    await store.createSession(sampleSession('upper-5', { createdAt: '2026-01-01T00:00:05.000Z', agent: 'ÉDITEUR', userdata: { subject: 'ÉCOLE normale' } }));
    const sids = (sessions: readonly { sid: string }[]) => sessions.map((session) => session.sid);
    const search = async (text: string) => sids(await store.listSessions({ search: text }));
    assert.deepEqual(await search('after'), ['nul-1']);
    assert.deepEqual(await search('broken'), ['lone-2']);
    assert.deepEqual(await search(' pair'), ['lone-2']);
    assert.deepEqual(await search('\uFFFD'), ['text-3', 'lone-2', 'nul-1']);
    assert.deepEqual(await search('before \uFFFD after'), ['nul-1']);
    assert.deepEqual(await search('u0000'), ['text-3']);
    assert.deepEqual(await search('C:\\U0000DIR'), ['text-3']);
    assert.deepEqual(await search('\\\uFFFD too'), ['text-3']);
    assert.deepEqual(await search('ufffd'), []);
    assert.deepEqual(await search('deep one'), ['deep-4']);
    assert.deepEqual(await search('next'), []);
    assert.deepEqual(await search('école'), []);
    assert.deepEqual(await search('éditeur'), []);
    assert.deepEqual(await search('École'), ['upper-5']);
    assert.deepEqual(await search('Éditeur'), ['upper-5']);
  }),
  define('listSessions refuses an offset, search, parentSid, sidPrefix, status or option name no store can take (LOOP_ARGUMENT_INVALID)', async (store) => {
    await store.createSession(sampleSession('a'));
    const refusals: [object, RegExp][] = [
      [{ offset: -1 }, /^listSessions: offset must be a whole number from 0/],
      [{ offset: 1.5 }, /^listSessions: offset must be a whole number from 0/],
      [{ offset: '1' }, /^listSessions: offset must be a whole number from 0.*got string$/],
      [{ search: 'a\u0000b' }, /^listSessions: search "a\\u0000b" must not contain control characters, got U\+0000 at index 1/],
      [{ search: 'line\nbreak' }, /^listSessions: search .* must not contain control characters/],
      [{ search: 'lone \ud800' }, /^listSessions: search .* must be well-formed Unicode/],
      [{ search: 'x'.repeat(1001) }, /^listSessions: search must be at most 1000 characters, got 1001/],
      [{ search: 7 }, /^listSessions: search must be a string, got 7/],
      [{ sidPrefix: '' }, /^listSessions: sidPrefix "" must not be empty/],
      [{ parentSid: 5 }, /^listSessions: parentSid 5 must be a string, got number/],
      [{ status: 'finished' }, /^listSessions: status must be running, paused, done or halted, got "finished"/],
      [{ q: 'typo' }, /^listSessions: unknown option "q"; the options are status, parentSid, sidPrefix, search, offset, limit/],
    ];
    for (const [options, message] of refusals) {
      await assert.rejects(store.listSessions(options as never), (error: unknown) => {
        codeOf('LOOP_ARGUMENT_INVALID')(error);
        assert.match((error as Error).message, message);
        return true;
      }, JSON.stringify(options));
    }
  }),
  define('countSessions counts what listSessions lists for the same filter, without offset or limit', async (store) => {
    await store.createSession(sampleSession('abc-1', { createdAt: '2026-01-01T00:00:01.000Z', parentSid: 'root', userdata: { subject: 'Deploy the Site' } }));
    await store.createSession(sampleSession('abd-2', { createdAt: '2026-01-01T00:00:02.000Z', status: 'done', userdata: { subject: 'before \u0000 after' } }));
    await store.createSession(sampleSession('ABC-3', { createdAt: '2026-01-01T00:00:03.000Z', parentSid: 'root', agent: 'Reviewer', status: 'done' }));
    await store.createSession(sampleSession('日本-🚀-4', { createdAt: '2026-01-01T00:00:04.000Z', parentSid: 'abc-1', userdata: { subject: 'deploy again' } }));
    const filters = [{}, { status: 'done' }, { status: 'paused' }, { parentSid: 'root' }, { parentSid: 'root', status: 'done' }, { sidPrefix: 'ab' }, { sidPrefix: '日本-🚀' }, { search: 'DEPLOY' }, { search: '\uFFFD' }, { search: 'review', status: 'done' }, { search: '' }, { search: 'a', sidPrefix: 'ab', parentSid: 'root' }] as const;
    for (const filter of filters) {
      const listed = (await store.listSessions(filter)).length;
      assert.equal(await countSessions(store, filter), listed, JSON.stringify(filter));
      if (store.countSessions !== undefined) assert.equal(await store.countSessions(filter), listed, `the store's own count of ${JSON.stringify(filter)}`);
    }
    assert.equal(await countSessions(store), 4);
    assert.equal(await countSessions(store, { search: 'deploy' }), 2);
    const refusals: [object, RegExp][] = [
      [{ limit: 2 }, /^countSessions: unknown option "limit" \(a count takes every match: offset and limit page listSessions\); the options are status, parentSid, sidPrefix, search$/],
      [{ offset: 0 }, /^countSessions: unknown option "offset"/],
      [{ search: 'a\u0000b' }, /^countSessions: search "a\\u0000b" must not contain control characters/],
      [{ sidPrefix: '' }, /^countSessions: sidPrefix "" must not be empty/],
      [{ status: 'finished' }, /^countSessions: status must be running, paused, done or halted/],
    ];
    for (const [filter, message] of refusals) {
      const refused = (error: unknown): boolean => {
        codeOf('LOOP_ARGUMENT_INVALID')(error);
        assert.match((error as Error).message, message);
        return true;
      };
      await assert.rejects(countSessions(store, filter as never), refused, JSON.stringify(filter));
      if (store.countSessions !== undefined) await assert.rejects(store.countSessions(filter as never), refused, `the store's own count of ${JSON.stringify(filter)}`);
    }
  }),
  define('every store keeps the session ids and turn indexes at the edges of what all stores hold', async (store) => {
    // A UUID, the longest id, non-Latin letters and an emoji (a surrogate pair), spaces and punctuation.
    const sids = ['9b2f0c1e-5d7a-4e8b-9c3d-2a1b0c9d8e7f', 'x'.repeat(256), 'séance-日本-🚀', 'a b/c:d?e#f%00'];
    for (const sid of sids) {
      await store.createSession(sampleSession(sid));
      await store.saveTurn(sampleTurn(sid, 2 ** 31 - 1));
      assert.deepEqual(await store.getSession(sid), sampleSession(sid));
      assert.deepEqual((await store.lastTurn(sid))?.turnIndex, 2 ** 31 - 1);
    }
    assert.deepEqual(new Set((await store.listSessions()).map((session) => session.sid)), new Set(sids));
  }),
  define('a session id with a control character, a lone surrogate, none or too many characters is LOOP_ARGUMENT_INVALID in every call', async (store) => {
    const refused = (where: string) => (error: unknown): boolean => {
      codeOf('LOOP_ARGUMENT_INVALID')(error);
      assert.match((error as Error).message, new RegExp(`^${where}: the session id `));
      return true;
    };
    for (const sid of ['nul\u0000inside', 'line\nbreak', 'tab\there', 'del\u007f', 'c1\u0085', 'lone\ud800', '\udc00low', '', 'x'.repeat(257)]) {
      await assert.rejects(store.createSession(sampleSession(sid)), refused('createSession'), JSON.stringify(sid));
      await assert.rejects(store.getSession(sid), refused('getSession'), JSON.stringify(sid));
      await assert.rejects(store.updateSession(sampleSession(sid)), refused('updateSession'), JSON.stringify(sid));
      await assert.rejects(store.saveTurn(sampleTurn(sid, 1)), refused('saveTurn'), JSON.stringify(sid));
      await assert.rejects(store.listTurns(sid), refused('listTurns'), JSON.stringify(sid));
      await assert.rejects(store.lastTurn(sid), refused('lastTurn'), JSON.stringify(sid));
      if (store.acquireLease !== undefined) await assert.rejects(store.acquireLease(sid, 'host-a', 60_000), refused('acquireLease'), JSON.stringify(sid));
      if (store.releaseLease !== undefined) await assert.rejects(store.releaseLease(sid, 'host-a'), refused('releaseLease'), JSON.stringify(sid));
    }
    // With a valid turn but a session row of a bad id, nothing is saved.
    await store.createSession(sampleSession('ok'));
    await assert.rejects(store.saveTurn(sampleTurn('ok', 1), sampleSession('ok\u0000')), refused('saveTurn'));
    assert.deepEqual(await store.listTurns('ok'), []);
    assert.deepEqual(await store.listSessions(), [sampleSession('ok')]);
  }),
  define('saveTurn refuses a turn index outside 1 to 2^31 − 1 or not whole (LOOP_ARGUMENT_INVALID), saving nothing', async (store) => {
    await store.createSession(sampleSession('idx'));
    for (const turnIndex of [2 ** 31, 2 ** 53, 0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      await assert.rejects(store.saveTurn(sampleTurn('idx', turnIndex)), (error: unknown) => {
        codeOf('LOOP_ARGUMENT_INVALID')(error);
        assert.match((error as Error).message, /^saveTurn: the turn index must be a whole number from 1 to 2147483647/);
        return true;
      }, `turn index ${turnIndex}`);
    }
    assert.deepEqual(await store.listTurns('idx'), []);
  }),
  define('saveTurn then listTurns returns the full record unchanged (JSON round trip)', async (store) => {
    await store.createSession(sampleSession('rt'));
    const turn = sampleTurn('rt', 1);
    await store.saveTurn(turn);
    assert.deepEqual(await store.listTurns('rt'), [turn]);
  }),
  define('tool calls still out when the run ended (unfinished) round-trip, and records from before them load as saved', async (store) => {
    await store.createSession(sampleSession('unf'));
    const cancelled = sampleUnfinishedTurn('unf', 1);
    // As a version from before wrote it: the call cut at the deadline shown failed, unmarked; the cancelled ones left out.
    const { unfinished: _unfinished, ...older } = cancelled.toolCalls[2] as NonNullable<TurnRecord['toolCalls'][number]>;
    const before: TurnRecord = { ...cancelled, turnIndex: 2, toolCalls: [...cancelled.toolCalls.slice(0, 2), older] };
    await store.saveTurn(cancelled);
    await store.saveTurn(before);
    assert.deepEqual(await store.listTurns('unf'), [cancelled, before]);
    assert.deepEqual(await store.lastTurn('unf'), before);
    assert.equal((await store.listTurns('unf'))[1]?.toolCalls.some((call) => 'unfinished' in call), false);
  }),
  define('the unfinished calls of a turn\'s earlier runs (earlierUnfinished) round-trip, and records without them load as saved', async (store) => {
    await store.createSession(sampleSession('rerun'));
    const rerun = sampleRerunTurn('rerun', 1);
    // As a version from before wrote it: no earlierUnfinished, no toolCallsVersion.
    const { earlierUnfinished: _earlier, toolCallsVersion: _version, ...older } = sampleRerunTurn('rerun', 2);
    await store.saveTurn(rerun);
    await store.saveTurn(older);
    assert.deepEqual(await store.listTurns('rerun'), [rerun, older]);
    assert.deepEqual(await store.lastTurn('rerun'), older);
    assert.equal('earlierUnfinished' in ((await store.listTurns('rerun'))[1] ?? {}), false);
  }),
  define('saveTurn upserts by (sid, turnIndex): every phase change replaces the turn', async (store) => {
    await store.createSession(sampleSession('up'));
    // A turn just started: none of the optional fields yet.
    const { reply: _reply, prepared: _prepared, decision: _decision, endedAt: _endedAt, control: _control, failure: _failure, approval: _approval, ...asking } = sampleTurn('up', 1, { phase: 'asking' });
    await store.saveTurn(asking);
    assert.deepEqual(await store.listTurns('up'), [asking]);
    await store.saveTurn(sampleTurn('up', 1, { phase: 'executing' }));
    const decided = sampleTurn('up', 1, { phase: 'decided', output: 'final\n' });
    await store.saveTurn(decided);
    assert.deepEqual(await store.listTurns('up'), [decided]);
  }),
  define('listTurns orders by turn index as a number, whatever the save order', async (store) => {
    await store.createSession(sampleSession('ord'));
    for (const index of [10, 2, 1, 3]) await store.saveTurn(sampleTurn('ord', index, { output: `turn ${index}\n` }));
    assert.deepEqual((await store.listTurns('ord')).map((turn) => turn.turnIndex), [1, 2, 3, 10]);
  }),
  define('turns of different sessions are kept apart', async (store) => {
    await store.createSession(sampleSession('a'));
    await store.createSession(sampleSession('b'));
    await store.saveTurn(sampleTurn('a', 1, { output: 'a1\n' }));
    await store.saveTurn(sampleTurn('b', 1, { output: 'b1\n' }));
    await store.saveTurn(sampleTurn('a', 2, { output: 'a2\n' }));
    assert.deepEqual((await store.listTurns('a')).map((turn) => turn.output), ['a1\n', 'a2\n']);
    assert.deepEqual((await store.listTurns('b')).map((turn) => turn.output), ['b1\n']);
  }),
  define('listTurns of an unknown sid is empty; saveTurn for one is LOOP_SESSION_NOT_FOUND', async (store) => {
    assert.deepEqual(await store.listTurns('nobody'), []);
    await assert.rejects(store.saveTurn(sampleTurn('nobody', 1)), codeOf('LOOP_SESSION_NOT_FOUND'));
    assert.deepEqual(await store.listTurns('nobody'), []);
    assert.equal(await store.getSession('nobody'), undefined);
  }),
  define('leases: one holder per session until released or lapsed; a holder renews its own', async (store) => {
    const { acquireLease, releaseLease } = store;
    assert.ok(acquireLease !== undefined && releaseLease !== undefined, 'a store several hosts share offers acquireLease/releaseLease');
    const acquire = (sid: string, holder: string, ttlMs = 60_000) => acquireLease.call(store, sid, holder, ttlMs);
    const release = (sid: string, holder: string) => releaseLease.call(store, sid, holder);
    assert.equal(await acquire('s', 'host-a'), true);
    assert.equal(await acquire('s', 'host-b'), false);
    assert.equal(await acquire('s', 'host-a'), true, 'renewal by the holder');
    assert.equal(await acquire('other', 'host-b'), true, 'sessions are independent');
    await release('s', 'host-b');
    assert.equal(await acquire('s', 'host-b'), false, 'only the holder releases');
    await release('s', 'host-a');
    assert.equal(await acquire('s', 'host-b', 0), true);
    // A lease of 0 ms has lapsed at once, as a dead host's lease does after its time.
    assert.equal(await acquire('s', 'host-a'), true);
    assert.equal(await acquire('s', 'host-b'), false);
  }),
  define('leaseExpiresAt (optional): undefined before any lease, the lease\'s end while held, at most now once given up', async (store) => {
    const { acquireLease, releaseLease, leaseExpiresAt } = store;
    if (acquireLease === undefined || releaseLease === undefined || leaseExpiresAt === undefined) return;
    assert.equal(await leaseExpiresAt.call(store, 'never-leased'), undefined);
    const before = Date.now();
    assert.equal(await acquireLease.call(store, 'held', 'host-a', 60_000), true);
    const held = await leaseExpiresAt.call(store, 'held');
    assert.ok(held !== undefined && held >= before + 60_000 && held <= Date.now() + 60_000, `expected about now + 60 s, got ${String(held)}`);
    await releaseLease.call(store, 'held', 'host-a');
    const released = await leaseExpiresAt.call(store, 'held');
    assert.ok(released !== undefined && released <= Date.now(), `expected a lapsed lease, got ${String(released)}`);
  }),
  define('lastTurn returns the turn with the highest index, or undefined', async (store) => {
    await store.createSession(sampleSession('last'));
    assert.equal(await store.lastTurn('last'), undefined);
    assert.equal(await store.lastTurn('nobody'), undefined);
    for (const index of [2, 10, 1]) await store.saveTurn(sampleTurn('last', index, { output: `turn ${index}\n` }));
    assert.deepEqual(await store.lastTurn('last'), sampleTurn('last', 10, { output: 'turn 10\n' }));
    await store.saveTurn(sampleTurn('last', 10, { phase: 'executing', output: '' }));
    assert.deepEqual(await store.lastTurn('last'), sampleTurn('last', 10, { phase: 'executing', output: '' }));
  }),
  define('listTurnRange (optional) reads the turns from..to, of those the last ones, in order; listTurnRange(store) gives the same from any store', async (store) => {
    await store.createSession(sampleSession('ranged'));
    await store.createSession(sampleSession('other'));
    for (const index of [7, 1, 3, 2, 5, 4, 6]) await store.saveTurn(sampleTurn('ranged', index, { output: `turn ${index}\n` }));
    await store.saveTurn(sampleTurn('other', 3, { output: 'other\n' }));
    const cases: [TurnRange, number[]][] = [
      [{}, [1, 2, 3, 4, 5, 6, 7]],
      [{ from: 3 }, [3, 4, 5, 6, 7]],
      [{ to: 3 }, [1, 2, 3]],
      [{ from: 2, to: 4 }, [2, 3, 4]],
      [{ from: 4, to: 4 }, [4]],
      [{ last: 2 }, [6, 7]],
      [{ to: 5, last: 3 }, [3, 4, 5]],
      [{ from: 6, last: 5 }, [6, 7]],
      [{ from: 5, to: 2 }, []],
      [{ from: 8 }, []],
      [{ from: 2 ** 31 - 1 }, []],
    ];
    const readers: [string, (sid: string, range: TurnRange) => Promise<readonly TurnRecord[]>][] = [['listTurnRange(store, …)', (sid, range) => listTurnRange(store, sid, range)]];
    const own = store.listTurnRange;
    if (own !== undefined) readers.push(["the store's own listTurnRange", (sid, range) => own.call(store, sid, range)]);
    for (const [name, read] of readers) {
      for (const [range, indexes] of cases) assert.deepEqual((await read('ranged', range)).map((turn) => turn.turnIndex), indexes, `${name} ${JSON.stringify(range)}`);
      assert.deepEqual(await read('ranged', { from: 2, to: 2 }), [sampleTurn('ranged', 2, { output: 'turn 2\n' })], `${name}: the whole record`);
      assert.deepEqual(await read('nobody', { last: 3 }), [], `${name}: an unknown sid`);
      const refusals: [unknown, RegExp][] = [
        [{ from: 0 }, /^listTurnRange: from must be a whole number from 1 to 2147483647 \(2\^31 − 1\) or left out, got 0$/],
        [{ to: 1.5 }, /^listTurnRange: to must be a whole number/],
        [{ last: '3' }, /^listTurnRange: last must be a whole number from 1 to 2147483647 \(2\^31 − 1\) or left out, got "3"$/],
        [{ last: 2 ** 31 }, /^listTurnRange: last must be a whole number/],
        [{ before: 3 }, /^listTurnRange: unknown option "before"; the options are from, to, last$/],
        [null, /^listTurnRange: the range must be an object/],
      ];
      for (const [range, message] of refusals) {
        await assert.rejects(read('ranged', range as TurnRange), (error: unknown) => {
          codeOf('LOOP_ARGUMENT_INVALID')(error);
          assert.match((error as Error).message, message);
          return true;
        }, `${name} ${JSON.stringify(range)}`);
      }
      await assert.rejects(read('a\u0000b', {}), codeOf('LOOP_ARGUMENT_INVALID'), `${name}: a bad id`);
    }
  }),
  define('a session tally round-trips through createSession, updateSession and listSessions', async (store) => {
    const session = sampleSession('tallied', { tally: sampleTally(1) });
    await store.createSession(session);
    assert.deepEqual(await store.getSession('tallied'), session);
    const updated = sampleSession('tallied', { turns: 2, tally: sampleTally(2) });
    await store.updateSession(updated);
    assert.deepEqual(await store.getSession('tallied'), updated);
    assert.deepEqual(await store.listSessions(), [updated]);
  }),
  define('saveTurn with a session saves the turn and replaces the session row together', async (store) => {
    await store.createSession(sampleSession('both'));
    await store.saveTurn(sampleTurn('both', 1, { phase: 'asking' }));
    const session = sampleSession('both', { status: 'done', turns: 1, updatedAt: '2026-01-01T00:00:02.000Z', lastDecision: { kind: 'DONE', result: 'ok' }, tally: sampleTally(1) });
    await store.saveTurn(sampleTurn('both', 1), session);
    assert.deepEqual(await store.listTurns('both'), [sampleTurn('both', 1)]);
    assert.deepEqual(await store.getSession('both'), session);
  }),
  define('a session saved without a tally has none any more (the controller drops a tally a changed turn made stale)', async (store) => {
    await store.createSession(sampleSession('drop', { tally: sampleTally(1) }));
    const { tally: _tally, ...untallied } = sampleSession('drop', { status: 'halted', turns: 1, tally: sampleTally(1) });
    await store.saveTurn(sampleTurn('drop', 1), untallied);
    assert.deepEqual(await store.getSession('drop'), untallied);
    await store.updateSession(sampleSession('drop', { tally: sampleTally(1) }));
    await store.updateSession(untallied);
    assert.deepEqual(await store.getSession('drop'), untallied);
  }),
  define('saveTurn with a session of an unknown sid is LOOP_SESSION_NOT_FOUND and saves neither', async (store) => {
    await assert.rejects(store.saveTurn(sampleTurn('ghost', 1), sampleSession('ghost')), codeOf('LOOP_SESSION_NOT_FOUND'));
    assert.deepEqual(await store.listTurns('ghost'), []);
    assert.equal(await store.getSession('ghost'), undefined);
  }),
  define('system texts come back exactly, whatever part of them several turns share', async (store) => {
    // What the controller sends: a long shared part (rules, catalogue) and each turn's own budget line.
    const shared = `rules: write one command block … “quoted” ✓ 𝄞\n\n${'tool.str.ToUpper(s: string) -> string — upper-cases s.\n'.repeat(40)}`;
    const texts = [
      `${shared}\n\nBudget: turn 1 of 4; 900 tokens left.`,
      `${shared}\n\nBudget: turn 2 of 4; 700 tokens left.\n\nYour previous ACTIONS failed.`,
      `${shared}\n\nBudget: turn 3 of 4.\n\nBudget: a second line that looks like one`,
      'a short system text with no budget line',
      `${shared.slice(0, 100)}\n\nBudget: turn 5 of 5.`,
    ];
    await store.createSession(sampleSession('texts'));
    await store.createSession(sampleSession('texts-2'));
    for (const [index, system] of texts.entries()) await store.saveTurn(sampleTurn('texts', index + 1, { system }));
    await store.saveTurn(sampleTurn('texts-2', 1, { system: texts[1] as string }));
    assert.deepEqual((await store.listTurns('texts')).map((turn) => turn.system), texts);
    assert.deepEqual(await store.lastTurn('texts'), sampleTurn('texts', 5, { system: texts[4] as string }));
    assert.deepEqual(await store.listTurns('texts-2'), [sampleTurn('texts-2', 1, { system: texts[1] as string })]);
  }),
  define('records read back are copies: changing them changes nothing stored', async (store) => {
    await store.createSession(sampleSession('copy'));
    await store.saveTurn(sampleTurn('copy', 1));
    const session = (await store.getSession('copy')) as unknown as { userdata: { subject: string } };
    session.userdata.subject = 'changed';
    const [turn] = (await store.listTurns('copy')) as unknown as { emits: string[] }[];
    turn?.emits.push('changed');
    assert.deepEqual(await store.getSession('copy'), sampleSession('copy'));
    assert.deepEqual(await store.listTurns('copy'), [sampleTurn('copy', 1)]);
  }),
];
